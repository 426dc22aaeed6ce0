"""test_discovery.py -- where the client looks for the daemon, in the order
client/client.c uses: explicit path, $SUDOKUD_SOCKET, then (not root, with
$XDG_RUNTIME_DIR) the user's socket before the system's.  Real daemons on
sockets in temporary directories; euid is patched to play a user."""

import asyncio
import os

import pytest

import sudokud
from sudokud import protocol

SYSTEM = sudokud.SYSTEM_SOCKET


@pytest.fixture
def env(monkeypatch, tmp_path):
    """A clean environment: no SUDOKUD_SOCKET, XDG_RUNTIME_DIR a temp dir."""
    monkeypatch.delenv("SUDOKUD_SOCKET", raising=False)
    xdg = tmp_path / "xdg"
    xdg.mkdir()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(xdg))
    return str(xdg)


def as_user(monkeypatch, uid):
    monkeypatch.setattr(os, "geteuid", lambda: uid)


# The rule itself, table-driven: (path, environment, euid, expected sockets).
RULES = [
    # an explicit path wins over everything
    ("/a.sock", {"SUDOKUD_SOCKET": "/b.sock", "XDG_RUNTIME_DIR": "/x"}, 1000, ["/a.sock"]),
    # then the environment variable, for root too
    (None, {"SUDOKUD_SOCKET": "/b.sock", "XDG_RUNTIME_DIR": "/x"}, 0, ["/b.sock"]),
    # a user: their own daemon first, then the system one
    (None, {"XDG_RUNTIME_DIR": "/x"}, 1000, ["/x/sudokud.sock", SYSTEM]),
    # root never looks in XDG_RUNTIME_DIR
    (None, {"XDG_RUNTIME_DIR": "/x"}, 0, [SYSTEM]),
    # no XDG_RUNTIME_DIR: only the system socket
    (None, {}, 1000, [SYSTEM]),
    # empty values count as unset
    ("", {"SUDOKUD_SOCKET": "", "XDG_RUNTIME_DIR": ""}, 1000, [SYSTEM]),
    # an XDG_RUNTIME_DIR too long for a socket is skipped
    (None, {"XDG_RUNTIME_DIR": "/" + "x" * 120}, 1000, [SYSTEM]),
]


@pytest.mark.parametrize("path,environ,euid,expected", RULES)
def test_rule(path, environ, euid, expected):
    assert protocol.socket_candidates(path, environ, euid) == expected


def test_too_long_explicit_path_is_refused():
    with pytest.raises(sudokud.DaemonUnavailable) as info:
        protocol.socket_candidates("/" + "x" * 120, {}, 0)
    assert "too long" in info.value.message


def test_explicit_path_beats_the_environment(start_daemon, env, monkeypatch):
    d = start_daemon()
    monkeypatch.setenv("SUDOKUD_SOCKET", os.path.join(env, "wrong.sock"))
    with sudokud.Client(d.sock) as c:
        assert c.path == d.sock and c.ping() > 0


def test_environment_variable(start_daemon, env, monkeypatch):
    d = start_daemon()
    user = start_daemon(sock=os.path.join(env, "sudokud.sock"))
    monkeypatch.setenv("SUDOKUD_SOCKET", d.sock)
    as_user(monkeypatch, 1000)
    with sudokud.Client() as c:  # SUDOKUD_SOCKET wins over the user's socket
        assert c.path == d.sock and c.ping() > 0
    user.stop()


def test_user_socket_first(start_daemon, env, monkeypatch):
    d = start_daemon(sock=os.path.join(env, "sudokud.sock"))
    as_user(monkeypatch, 1000)
    with sudokud.Client() as c:
        assert c.path == d.sock and c.ping() > 0

    async def main():
        async with sudokud.AsyncClient() as a:
            assert a.path == d.sock and await a.ping() > 0
    asyncio.run(main())


def test_nothing_found_names_every_socket(env, monkeypatch):
    if os.path.exists(SYSTEM):
        pytest.skip("a system daemon's socket exists on this machine")
    as_user(monkeypatch, 1000)
    with pytest.raises(sudokud.DaemonUnavailable) as info:
        sudokud.Client()
    msg = info.value.message
    user = os.path.join(env, "sudokud.sock")
    assert msg.index(user) < msg.index(SYSTEM)  # tried in that order
    assert msg.count("is sudokud running?") == 2
    as_user(monkeypatch, 0)  # root: the system socket alone
    with pytest.raises(sudokud.DaemonUnavailable) as info:
        sudokud.Client()
    assert user not in info.value.message and SYSTEM in info.value.message


def test_lazy_client_connects_on_first_call(start_daemon, env, monkeypatch):
    monkeypatch.setenv("SUDOKUD_SOCKET", os.path.join(env, "later.sock"))
    c = sudokud.Client(lazy=True)  # no daemon yet: no error yet
    try:
        d = start_daemon(sock=os.path.join(env, "later.sock"))
        assert c.ping() > 0 and c.path == d.sock
    finally:
        c.close()
