"""test_reconnect.py -- a Client outlives a daemon restart: the call that
finds its connection dead reconnects once and sends again."""

import pytest

import sudokud
from sudokud import protocol
from sudoku_rules import check_solution
from test_methods import HARD9, puzzles


def test_call_after_restart_reconnects(start_daemon):
    d = start_daemon()
    with sudokud.Client(d.sock, timeout=10) as c:
        c.ping()
        d.restart()
        check_solution(HARD9, c.solve(HARD9).solution)
        assert c.stats().connections == 1  # ours, on the new daemon
        d.restart()
        assert c.ping() > 0  # and again: one retry per call, not per client


def test_pipeline_after_restart_resends(start_daemon):
    d = start_daemon()
    batch = puzzles("daemon_17clue.txt", 20)
    with sudokud.Client(d.sock, timeout=10) as c:
        c.ping()
        d.restart()
        for p, r in zip(batch, c.solve_many(batch, window=8)):
            check_solution(p, r.solution)


def test_pending_calls_are_sent_again(start_daemon):
    d = start_daemon()
    with sudokud.Client(d.sock, timeout=10) as c:
        c.ping()
        d.restart()
        calls = [c.submit(protocol.solve(p)) for p in puzzles("daemon_17clue.txt", 3)]
        for p, call in zip(puzzles("daemon_17clue.txt", 3), calls):
            check_solution(p, call.result().solution)


def test_daemon_gone_fails_with_advice(start_daemon):
    d = start_daemon()
    with sudokud.Client(d.sock, timeout=10) as c:
        c.ping()
        d.stop()
        with pytest.raises(sudokud.DaemonUnavailable) as info:
            c.ping()
        assert isinstance(info.value, ConnectionError)
        assert "cannot reconnect" in info.value.message and d.sock in info.value.message
        d.start()
        assert c.ping() > 0  # the next call connects afresh
