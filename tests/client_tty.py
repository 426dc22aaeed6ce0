#!/usr/bin/env python3
"""client_tty.py -- the sudoku tool at a terminal (under a pty).

Starts the real sudokud on a temporary socket, then runs `sudoku` with its
stdin, stdout and stderr on a pseudo-terminal, as a person typing would:
  - it says "reading puzzles from the terminal; Ctrl-D ends" first;
  - a typed line-form puzzle is answered before the next line is typed,
    and no progress line is drawn over the line being typed;
  - in a second session, a typed judge grid is answered once its last row
    is typed;
  - Ctrl-D ends it with status 0.
Answers are checked by the rules and the givens, never against stored text.
Usage: client_tty.py SUDOKU SUDOKUD PLUGIN_DIR PUZZLE_FILE
"""
import os
import pty
import select
import subprocess
import sys
import tempfile
import time

TIMEOUT = 20.0


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def collect(fd, secs, pred=None):
    """What the terminal shows within secs, or until pred(what) holds.
    Returns (what, whether pred held)."""
    buf = b""
    end = time.time() + secs
    while time.time() < end:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            buf += chunk
            if pred and pred(buf):
                return buf, True
    return buf, False


def read_until(fd, pred, what):
    buf, ok = collect(fd, TIMEOUT, pred)
    if not ok:
        fail("no %s within %.0f s; the terminal shows: %r" % (what, TIMEOUT, buf))
    return buf


def drain(fd, secs):
    """Whatever the terminal shows within secs."""
    return collect(fd, secs)[0]


def check_grid(givens, cells):
    """cells solve givens (81 values, 0 blank) by the rules."""
    if len(cells) != 81 or any(not 1 <= v <= 9 for v in cells):
        return False
    if any(g and g != c for g, c in zip(givens, cells)):
        return False
    units = [[r * 9 + c for c in range(9)] for r in range(9)]
    units += [[r * 9 + c for r in range(9)] for c in range(9)]
    units += [[(br + r) * 9 + bc + c for r in range(3) for c in range(3)]
              for br in (0, 3, 6) for bc in (0, 3, 6)]
    return all(sorted(cells[i] for i in u) == list(range(1, 10)) for u in units)


def solution_lines(buf, typed):
    """Whole lines the tool printed (the terminal also echoes what was typed).
    A line not ended yet is left out: a read can return half of the echo."""
    text = buf.decode(errors="replace")
    lines = [l.strip() for l in text[:text.rfind("\n") + 1].splitlines()]
    return [l for l in lines if l and l not in typed and not l.startswith("sudoku:")]


def session(tool, sock):
    """Start the tool on a pty; wait for its notice.  Returns (fd, pid)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(tool, [tool, "-s", sock])
    read_until(fd, lambda b: b"reading puzzles from the terminal; Ctrl-D ends" in b,
               "terminal notice")
    return fd, pid


def end_session(fd, pid):
    """Ctrl-D; the tool must exit 0."""
    os.write(fd, b"\x04")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        fail("sudoku did not exit 0 after Ctrl-D (status %d)" % status)


def main():
    tool, daemon, plugins, puzzles = sys.argv[1:5]
    with open(puzzles) as f:
        lines = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    first, second = lines[0], lines[1]
    tmp = tempfile.mkdtemp(prefix="sudoku-tty-")
    sock = os.path.join(tmp, "s.sock")
    log = open(os.path.join(tmp, "d.log"), "w")
    d = subprocess.Popen([daemon, "-s", sock, "-P", plugins], stderr=log)
    try:
        for _ in range(500):
            if os.path.exists(sock):
                break
            time.sleep(0.01)
        fd, pid = session(tool, sock)
        for puzzle in (first, second):
            if puzzle is second:
                time.sleep(1.3)  # past the progress line's first showing
            os.write(fd, (puzzle + "\n").encode())
            buf = read_until(fd, lambda b: len(solution_lines(b, [puzzle])) >= 1,
                             "answer to the typed puzzle")
            buf += drain(fd, 0.4)
            if b"\x1b[K" in buf or b"puzzles, " in buf:
                fail("a progress line was drawn where the person types: %r" % buf)
            answer = solution_lines(buf, [puzzle])[0]
            givens = [int(c) for c in puzzle.replace(".", "0")]
            if not check_grid(givens, [int(c) for c in answer]):
                fail("answer %r does not solve %r" % (answer, puzzle))
        end_session(fd, pid)
        fd, pid = session(tool, sock)
        rows = [" ".join(first[r * 9:(r + 1) * 9]) for r in range(9)]
        for row in rows:
            os.write(fd, (row + "\n").encode())
        buf = read_until(fd, lambda b: len(solution_lines(b, rows)) >= 9, "answer to the grid")
        grid = solution_lines(buf, rows)[:9]
        cells = [int(v) for row in grid for v in row.split()]
        if not check_grid([int(c) for c in first], cells):
            fail("grid answer %r does not solve the typed grid" % grid)
        end_session(fd, pid)
        print("client_tty: each typed puzzle was answered at once")
    finally:
        d.terminate()
        d.wait()
        log.close()
        subprocess.call(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
