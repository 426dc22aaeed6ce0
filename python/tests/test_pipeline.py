"""test_pipeline.py -- several requests in flight on one connection: answers
matched by msgid when they come out of order, solve_many()/solve_iter()
in input order, cancel and the two kinds of timeout."""

import threading
import time

import pytest

import sudokud
from sudokud import protocol
from sudoku_rules import check_solution
from test_methods import P16, puzzles

EMPTY9 = "." * 81
SLOW = dict(limit=2**64 - 1)  # counting the empty grid's solutions never ends


def wait_idle(client, seconds=5):
    """True once the daemon has nothing queued or running."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if client.stats().in_flight == 0:
            return True
        time.sleep(0.02)
    return False


def test_quick_answers_overtake_a_slow_one(client):
    slow = client.submit(protocol.solve(EMPTY9, timeout_ms=3000, **SLOW))
    quick = [client.submit(protocol.solve(p)) for p in puzzles("norvig_top95.txt", 8)]
    for p, call in zip(puzzles("norvig_top95.txt", 8), quick):
        check_solution(p, call.result(10).solution)
    assert not slow.done  # answered after the ones sent behind it
    with pytest.raises(sudokud.Timeout):
        slow.result(10)


def test_solve_many_keeps_input_order(client):
    batch = puzzles("norvig_top95.txt") + puzzles("daemon_17clue.txt", 40) + [P16]
    out = client.solve_many(batch, window=16)
    assert len(out) == len(batch)
    for p, r in zip(batch, out):
        check_solution(p, r.solution)


def test_solve_many_mixed_slow_and_failing(client):
    good = puzzles("daemon_17clue.txt", 6)
    batch = [EMPTY9, good[0], "123", good[1], EMPTY9, good[2]]
    out = client.solve_many(batch, limit=2**64 - 1, timeout_ms=1000, window=6,
                            return_exceptions=True)
    assert isinstance(out[0], sudokud.Timeout) and isinstance(out[4], sudokud.Timeout)
    assert isinstance(out[2], sudokud.BadPuzzle)
    for i in (1, 3, 5):
        check_solution(batch[i], out[i].solution)
        assert out[i].count == 1
    with pytest.raises(sudokud.BadPuzzle):
        client.solve_many(good[:2] + ["123"] + good[2:])
    client.ping()


def test_solve_iter_streams_with_a_window(client):
    seen = []
    gen = client.solve_iter((p for p in puzzles("daemon_17clue.txt", 50)), window=4)
    for r in gen:
        seen.append(r)
        assert len(client._calls) <= 4  # never more than the window in flight
    assert len(seen) == 50
    for p, r in zip(puzzles("daemon_17clue.txt", 50), seen):
        check_solution(p, r.solution)


def test_solve_iter_stopped_early_leaves_a_clean_connection(client):
    gen = client.solve_iter([EMPTY9] * 5, limit=2**64 - 1, timeout_ms=20000, window=5)
    next_item = gen.__next__
    t = threading.Timer(0.2, lambda: [client.cancel(c) for c in list(client._calls.values())])
    t.start()
    assert isinstance(next_item(), sudokud.Cancelled)
    gen.close()  # the other four are cancelled too
    t.join()
    assert not client._calls
    assert wait_idle(client)


def test_cancel_before_the_answer(client):
    call = client.submit(protocol.solve(EMPTY9, timeout_ms=20000, **SLOW))
    start = time.monotonic()
    call.cancel()
    with pytest.raises(sudokud.Cancelled):
        call.result(10)
    assert time.monotonic() - start < 5
    assert wait_idle(client)
    client.ping()


def test_cancel_from_another_thread(client):
    call = client.submit(protocol.solve(EMPTY9, timeout_ms=20000, **SLOW))
    t = threading.Timer(0.2, call.cancel)
    t.start()
    start = time.monotonic()
    with pytest.raises(sudokud.Cancelled):
        call.result()  # blocks until the other thread's cancel is answered
    t.join()
    assert 0.15 < time.monotonic() - start < 5
    assert wait_idle(client)


def test_client_timeout_cancels_on_the_daemon(client):
    start = time.monotonic()
    with pytest.raises(sudokud.ClientTimeout) as info:
        client.solve(EMPTY9, timeout_ms=20000, timeout=0.3, **SLOW)
    assert isinstance(info.value, TimeoutError) and info.value.code == "io_timeout"
    assert 0.25 < time.monotonic() - start < 5
    assert wait_idle(client)  # the daemon was told to stop: not 20 s of work
    check_solution(P16, client.solve(P16).solution)  # the late answer is not taken


def test_client_default_timeout(daemon):
    with sudokud.Client(daemon.sock, timeout=1.0) as c:
        start = time.monotonic()
        with pytest.raises(sudokud.ClientTimeout):
            c.solve(EMPTY9, timeout_ms=20000, **SLOW)
        assert time.monotonic() - start >= 0.95
        assert c.ping() < 1.0


def test_daemon_timeout_is_an_answer(client):
    start = time.monotonic()
    with pytest.raises(sudokud.Timeout):
        client.solve(EMPTY9, timeout_ms=200, **SLOW)
    assert 0.15 < time.monotonic() - start < 5


def test_msgids_wrap(client):
    client._msgid = protocol.MSGID_MAX - 2
    for _ in range(5):
        client.ping()
    assert 1 <= client._msgid <= 3
