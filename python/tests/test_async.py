"""test_async.py -- AsyncClient against the real daemon: every method, many
coroutines on one connection, answers out of order, cancelling the awaiting
task, both timeouts, errors and reconnecting.  Each test runs its own event
loop (asyncio.run), so no pytest plugin is needed."""

import asyncio
import time

import pytest

import sudokud
from sudoku_rules import cells, check_solution
from test_methods import HARD9, P16, P25, puzzles
from test_pipeline import wait_idle

EMPTY9 = "." * 81
SLOW = dict(limit=2**64 - 1)


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_every_method(daemon, has_version):
    async def main():
        async with sudokud.AsyncClient(daemon.sock) as a:
            assert await a.ping() > 0
            for p in (HARD9, P16, P25, cells(HARD9)):
                check_solution(p, (await a.solve(p)).solution)
            assert (await a.solve("1.3.34..2.4...2.", limit=2)).count == 2
            assert (await a.solve(HARD9, solver="dlx")).solver == "dlx"
            solvers = await a.solvers()
            assert sum(s.default for s in solvers) == 1
            stats = await a.stats()
            assert stats.requests > 0 and stats.connections >= 1
            g = await a.generate(seed=7, count=2, symmetry="mirror", minimal=True)
            assert len(g) == 2 and g[0].symmetry == "mirror"
            check_solution(g[0].puzzle, g[0].solution)
            r = await a.rate(g[0].puzzle)
            assert r.rating == g[0].rating
            e = await a.explain(g[0].puzzle)
            assert e.status == "solved" and e.rating == r.rating
            step = await a.hint(g[0].puzzle)
            assert step.technique == e.steps[0].technique
            if has_version:
                v = await a.version()
                assert v.protocol == 1
            else:
                with pytest.raises(sudokud.UnknownMethod):
                    await a.version()
    run(main())


def test_many_coroutines_share_one_connection(start_daemon):
    d = start_daemon("--threads", "4")
    batch = puzzles("norvig_top95.txt") + puzzles("daemon_17clue.txt", 60)

    async def main():
        async with sudokud.AsyncClient(d.sock) as a:
            before = await a.stats()
            results = await asyncio.gather(*(a.solve(p) for p in batch))
            for p, r in zip(batch, results):
                check_solution(p, r.solution)
            after = await a.stats()
            assert after.connections_total == before.connections_total  # all over one
            assert after.connections == 1
    run(main())


def test_answers_out_of_order(daemon):
    done = []

    async def solve(a, name, puzzle, **kw):
        try:
            r = await a.solve(puzzle, **kw)
            check_solution(puzzle, r.solution)
        except sudokud.Timeout:
            pass
        done.append(name)

    async def main():
        async with sudokud.AsyncClient(daemon.sock) as a:
            await asyncio.gather(solve(a, "slow", EMPTY9, timeout_ms=3000, **SLOW),
                                 *(solve(a, i, p) for i, p in
                                   enumerate(puzzles("daemon_17clue.txt", 10))))
    run(main())
    assert done[-1] == "slow" and sorted(done[:-1]) == list(range(10))


def test_solve_many_in_order(daemon):
    batch = [HARD9, "123", P16, EMPTY9]

    async def main():
        async with sudokud.AsyncClient(daemon.sock) as a:
            out = await a.solve_many(batch, window=2, timeout_ms=500, return_exceptions=True)
            check_solution(HARD9, out[0].solution)
            assert isinstance(out[1], sudokud.BadPuzzle)
            check_solution(P16, out[2].solution)
            assert out[3].count == 1  # limit 1: any solution of the empty grid
            with pytest.raises(sudokud.BadPuzzle):
                await a.solve_many(batch)
            ok = await a.solve_many(puzzles("daemon_17clue.txt", 30), window=4)
            for p, r in zip(puzzles("daemon_17clue.txt", 30), ok):
                check_solution(p, r.solution)
    run(main())


def test_cancelling_the_task_cancels_on_the_daemon(daemon, client):
    async def main():
        async with sudokud.AsyncClient(daemon.sock) as a:
            task = asyncio.ensure_future(a.solve(EMPTY9, timeout_ms=20000, **SLOW))
            start = time.monotonic()  # until the daemon is working on it
            while not (await a.stats()).in_flight and time.monotonic() - start < 5:
                await asyncio.sleep(0.02)
            assert (await a.stats()).in_flight >= 1
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            start = time.monotonic()
            while (await a.stats()).in_flight and time.monotonic() - start < 5:
                await asyncio.sleep(0.02)
            assert (await a.stats()).in_flight == 0  # not 20 s of work
            check_solution(HARD9, (await a.solve(HARD9)).solution)
    run(main())
    assert wait_idle(client)


def test_wait_for_cancels_too(daemon):
    async def main():
        async with sudokud.AsyncClient(daemon.sock) as a:
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(a.solve(EMPTY9, timeout_ms=20000, **SLOW), 0.2)
            start = time.monotonic()
            while (await a.stats()).in_flight and time.monotonic() - start < 5:
                await asyncio.sleep(0.02)
            assert (await a.stats()).in_flight == 0
    run(main())


def test_timeouts(daemon):
    async def main():
        async with sudokud.AsyncClient(daemon.sock, timeout=1.0) as a:
            start = time.monotonic()
            with pytest.raises(sudokud.ClientTimeout):
                await a.solve(EMPTY9, timeout_ms=20000, **SLOW)
            assert 0.95 < time.monotonic() - start < 5
            with pytest.raises(sudokud.Timeout):
                await a.solve(EMPTY9, timeout_ms=50, **SLOW)
            with pytest.raises(sudokud.ClientTimeout):
                await a.solve(EMPTY9, timeout_ms=20000, timeout=0.1, **SLOW)
            assert await a.ping() < 1.0
    run(main())


def test_errors(daemon):
    async def main():
        async with sudokud.AsyncClient(daemon.sock) as a:
            with pytest.raises(sudokud.BadRequest):
                await a.solve(HARD9, limit=0)
            with pytest.raises(sudokud.UnknownSolver):
                await a.solve(HARD9, solver="nosuch")
            with pytest.raises(sudokud.Unsupported):
                await a.explain(P25)
            with pytest.raises(sudokud.NotUnique):
                await a.rate(EMPTY9)
            with pytest.raises(sudokud.Internal):
                await a.solve(HARD9, solver="liar9")
            await a.ping()
    run(main())


def test_too_large_closes_without_retry(start_daemon):
    d = start_daemon("--max-message", "64")

    async def main():
        async with sudokud.AsyncClient(d.sock) as a:
            before = await a.stats()
            with pytest.raises(sudokud.TooLarge):
                await a.solve(P25)
            await a.ping()  # a new connection, the old one closed
            after = await a.stats()
            assert after.connections_total == before.connections_total + 1
            assert after.connections == 1
    run(main())


def test_no_daemon(tmp_path):
    async def main():
        with pytest.raises(sudokud.DaemonUnavailable) as info:
            await sudokud.AsyncClient(str(tmp_path / "none.sock")).connect()
        assert "is sudokud running?" in info.value.message
    run(main())


def test_reconnects_after_a_restart(start_daemon):
    d = start_daemon()

    async def main():
        async with sudokud.AsyncClient(d.sock) as a:
            await a.ping()
            d.restart()
            results = await asyncio.gather(*(a.solve(p) for p in
                                             puzzles("daemon_17clue.txt", 5)))
            for p, r in zip(puzzles("daemon_17clue.txt", 5), results):
                check_solution(p, r.solution)
            assert (await a.stats()).connections == 1  # one new connection for all
            d.stop()
            with pytest.raises(sudokud.DaemonUnavailable) as info:
                await a.ping()
            assert "cannot reconnect" in info.value.message
    run(main())
