#!/usr/bin/env python3
"""mprpc.py -- a tiny msgpack-rpc client for the systemd and install tests.

No msgpack module is needed: the encoder and decoder below cover the types
protocol v1 uses (nil, bool, int, str, bin, array, map, float).  Commands:

  mprpc.py ping SOCKET                 print the result of ping
  mprpc.py solve SOCKET SOLVER PUZZLE  solve, check the answer by the rules
                                       and the givens, print the result
  mprpc.py solvers SOCKET              print the solver names, one a line
  mprpc.py loop SOCKET SECONDS STOPFILE
      open a new connection and ping on it, again and again, for SECONDS or
      until STOPFILE exists (STOPFILE.started is made at the first pong);
      a connection attempt counts as lost unless it
      gets "pong".  Prints "attempts=N ok=M" and exits 1 if any was lost.
  mprpc.py wait SOCKET SECONDS         wait until a ping succeeds

Exit status: 0 success, 1 failure (reason on stderr).
"""
import os
import socket
import struct
import sys
import time

# ------------------------------------------------------------------ msgpack


def pack(obj):
    if obj is None:
        return b"\xc0"
    if obj is True:
        return b"\xc3"
    if obj is False:
        return b"\xc2"
    if isinstance(obj, int):
        if 0 <= obj < 128:
            return bytes([obj])
        if 0 <= obj < 2**32:
            return b"\xce" + struct.pack(">I", obj)
        if -32 <= obj < 0:
            return struct.pack(">b", obj)
        return b"\xd3" + struct.pack(">q", obj)
    if isinstance(obj, str):
        raw = obj.encode()
        if len(raw) < 32:
            return bytes([0xA0 | len(raw)]) + raw
        return b"\xdb" + struct.pack(">I", len(raw)) + raw
    if isinstance(obj, (list, tuple)):
        head = bytes([0x90 | len(obj)]) if len(obj) < 16 else b"\xdd" + struct.pack(">I", len(obj))
        return head + b"".join(pack(x) for x in obj)
    if isinstance(obj, dict):
        head = bytes([0x80 | len(obj)]) if len(obj) < 16 else b"\xdf" + struct.pack(">I", len(obj))
        return head + b"".join(pack(k) + pack(v) for k, v in obj.items())
    raise TypeError(type(obj))


class Incomplete(Exception):
    pass


def unpack(buf, pos=0):
    """Decode one object at buf[pos:]; returns (object, next position)."""

    def take(n):
        nonlocal pos
        if pos + n > len(buf):
            raise Incomplete()
        out = buf[pos:pos + n]
        pos += n
        return out

    def num(fmt):
        return struct.unpack(fmt, take(struct.calcsize(fmt)))[0]

    b = take(1)[0]
    if b < 0x80:
        return b, pos
    if b >= 0xE0:
        return b - 256, pos
    if 0xA0 <= b <= 0xBF:
        return take(b & 0x1F).decode(), pos
    if 0x90 <= b <= 0x9F or b in (0xDC, 0xDD):
        n = b & 0x0F if b <= 0x9F else num(">H" if b == 0xDC else ">I")
        out = []
        for _ in range(n):
            item, pos = unpack(buf, pos)
            out.append(item)
        return out, pos
    if 0x80 <= b <= 0x8F or b in (0xDE, 0xDF):
        n = b & 0x0F if b <= 0x8F else num(">H" if b == 0xDE else ">I")
        out = {}
        for _ in range(n):
            k, pos = unpack(buf, pos)
            v, pos = unpack(buf, pos)
            out[k] = v
        return out, pos
    simple = {0xC0: None, 0xC2: False, 0xC3: True}
    if b in simple:
        return simple[b], pos
    ints = {0xCC: ">B", 0xCD: ">H", 0xCE: ">I", 0xCF: ">Q",
            0xD0: ">b", 0xD1: ">h", 0xD2: ">i", 0xD3: ">q", 0xCA: ">f", 0xCB: ">d"}
    if b in ints:
        return num(ints[b]), pos
    strs = {0xD9: ">B", 0xDA: ">H", 0xDB: ">I", 0xC4: ">B", 0xC5: ">H", 0xC6: ">I"}
    if b in strs:
        raw = take(num(strs[b]))
        return (raw.decode() if b >= 0xD9 else raw), pos
    raise ValueError("unsupported msgpack byte 0x%02x" % b)


# ------------------------------------------------------------------ rpc


def call(path, method, params, timeout=10.0, msgid=1):
    """One request on a fresh connection; returns (error, result)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(path)
        s.sendall(pack([0, msgid, method, params]))
        buf = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed before the response")
            buf += chunk
            try:
                msg, _ = unpack(buf)
            except Incomplete:
                continue
            if isinstance(msg, list) and len(msg) == 4 and msg[0] == 1 and msg[1] == msgid:
                return msg[2], msg[3]
            raise ValueError("unexpected message %r" % (msg,))


SYMBOLS = "123456789ABCDEFGHIJKLMNOP"


def cells_of(text):
    """A puzzle string as a list of ints (0 blank)."""
    out = []
    for ch in text:
        if ch.isspace():
            continue
        out.append(0 if ch in ".0" else SYMBOLS.index(ch.upper()) + 1)
    return out


def check_solution(puzzle, solution):
    """None when solution fills puzzle by the rules, else the reason."""
    p, s = cells_of(puzzle), cells_of(solution)
    n = int(round(len(p) ** 0.5))
    box = int(round(n ** 0.5))
    if len(s) != len(p) or n * n != len(p) or box * box != n:
        return "wrong cell count"
    for i, (a, b) in enumerate(zip(p, s)):
        if a and a != b:
            return "given %d changed at cell %d" % (a, i)
    want = set(range(1, n + 1))
    for k in range(n):
        row = {s[k * n + c] for c in range(n)}
        col = {s[r * n + k] for r in range(n)}
        br, bc = (k // box) * box, (k % box) * box
        bx = {s[(br + r) * n + bc + c] for r in range(box) for c in range(box)}
        for name, group in (("row", row), ("column", col), ("box", bx)):
            if group != want:
                return "%s %d breaks the rules" % (name, k + 1)
    return None


# ------------------------------------------------------------------ commands


def cmd_ping(path):
    err, res = call(path, "ping", [])
    if err is not None or res != "pong":
        sys.exit("ping: error=%r result=%r" % (err, res))
    print(res)


def cmd_solve(path, solver, puzzle):
    err, res = call(path, "solve", [puzzle, {"solver": solver}])
    if err is not None:
        sys.exit("solve: error %r" % (err,))
    if res.get("solver") != solver or res.get("status") != "solved":
        sys.exit("solve: unexpected result %r" % (res,))
    why = check_solution(puzzle, res.get("solution") or "")
    if why:
        sys.exit("solve: wrong solution (%s): %r" % (why, res))
    print('"solver":"%s" "status":"%s" "count":%s' % (res["solver"], res["status"], res["count"]))


def cmd_solvers(path):
    err, res = call(path, "solvers", [])
    if err is not None:
        sys.exit("solvers: error %r" % (err,))
    for entry in res:
        print(entry["name"])


def cmd_loop(path, seconds, stopfile):
    end = time.monotonic() + float(seconds)
    attempts = ok = 0
    msgid = 0
    while time.monotonic() < end and not os.path.exists(stopfile):
        attempts += 1
        msgid += 1
        try:
            err, res = call(path, "ping", [], timeout=20.0, msgid=msgid)
            if err is None and res == "pong":
                ok += 1
                if ok == 1:  # the caller restarts daemons only once we run
                    open(stopfile + ".started", "w").close()
            else:
                print("attempt %d: error=%r result=%r" % (attempts, err, res), file=sys.stderr)
        except (OSError, ValueError) as exc:
            print("attempt %d: %s" % (attempts, exc), file=sys.stderr)
    print("attempts=%d ok=%d" % (attempts, ok))
    sys.exit(0 if attempts == ok and attempts > 0 else 1)


def cmd_wait(path, seconds):
    end = time.monotonic() + float(seconds)
    while True:
        try:
            if call(path, "ping", [], timeout=2.0) == (None, "pong"):
                return
        except (OSError, ValueError):
            pass
        if time.monotonic() > end:
            sys.exit("wait: no pong on %s within %ss" % (path, seconds))
        time.sleep(0.05)


def main(argv):
    cmds = {"ping": (cmd_ping, 1), "solve": (cmd_solve, 3), "solvers": (cmd_solvers, 1),
            "loop": (cmd_loop, 3), "wait": (cmd_wait, 2)}
    if len(argv) < 2 or argv[1] not in cmds or len(argv) != 2 + cmds[argv[1]][1]:
        sys.exit(__doc__)
    fn, _ = cmds[argv[1]]
    fn(*argv[2:])


if __name__ == "__main__":
    main(sys.argv)
