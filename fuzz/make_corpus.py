#!/usr/bin/env python3
"""make_corpus.py -- write the seed corpora of the fuzz targets.

Run from anywhere: python3 fuzz/make_corpus.py.  It rewrites the files under
fuzz/corpus/<target>/ (small, hand-picked inputs: valid requests of every
method and form, each kind of invalid input, hostile headers) from the
definitions below, using a minimal msgpack encoder so that nothing outside
the standard library is needed.  Inputs that libFuzzer finds are not written
back here: seeds stay few and readable.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

P9 = "..9.7...5..21..9..1...28....7...5..1..851.....5....3.......3..68........21.....87"
P4 = "1.3..4.2.2...1.."
P16 = ("D92.....G...43..4CF.....9D.2.6EB.E.1....F.8BC..AG56.....A3C....1.7G5A8...."
       "61....2...C....B7.......AE.964..G......F9.5.7.4............29....A.C......"
       "....645D.1......D....1.C.B7F.....E.C2G...8A9B..9.G52.....EF6.256..F.....D"
       ".B.E13.6.D........7A...8BC3....954.")[:256]
JUDGE = ("5 3 0 0 7 0 0 0 0\n6 0 0 1 9 5 0 0 0\n0 9 8 0 0 0 0 6 0\n8 0 0 0 6 0 0 0 3\n"
         "4 0 0 8 0 3 0 0 1\n7 0 0 0 2 0 0 0 6\n0 6 0 0 0 0 2 8 0\n0 0 0 4 1 9 0 0 5\n"
         "0 0 0 0 8 0 0 7 9\n")
BAD_ROW = "11" + "." * 79  # two 1s in row 1


def pack(o):
    """Encode o as msgpack (None, bool, int, str, bytes, list, dict)."""
    if o is None:
        return b"\xc0"
    if o is True:
        return b"\xc3"
    if o is False:
        return b"\xc2"
    if isinstance(o, int):
        if 0 <= o < 128:
            return bytes([o])
        if -32 <= o < 0:
            return struct.pack("b", o)
        if 0 <= o < 2**32:
            return b"\xce" + struct.pack(">I", o)
        if 0 <= o:
            return b"\xcf" + struct.pack(">Q", o)
        return b"\xd3" + struct.pack(">q", o)
    if isinstance(o, float):
        return b"\xcb" + struct.pack(">d", o)
    if isinstance(o, str):
        b = o.encode()
        if len(b) < 32:
            return bytes([0xA0 | len(b)]) + b
        if len(b) < 256:
            return b"\xd9" + bytes([len(b)]) + b
        return b"\xda" + struct.pack(">H", len(b)) + b
    if isinstance(o, bytes):
        return b"\xc4" + bytes([len(o)]) + o
    if isinstance(o, list):
        head = bytes([0x90 | len(o)]) if len(o) < 16 else b"\xdc" + struct.pack(">H", len(o))
        return head + b"".join(pack(x) for x in o)
    if isinstance(o, dict):
        head = bytes([0x80 | len(o)])
        return head + b"".join(pack(k) + pack(v) for k, v in o.items())
    raise TypeError(o)


def cells(p):
    return [0 if c == "." else int(c, 36) - 9 if c.isalpha() else int(c) for c in p]


def requests():
    """name -> bytes of the request-decoder seeds (one or more messages)."""
    r = {
        "solve_string": [0, 1, "solve", [P9]],
        "solve_lower16": [0, 2, "solve", [P16.lower(), {"solver": "dlx"}]],
        "solve_array4": [0, 3, "solve", [cells(P4), {"limit": 2, "timeout_ms": 100}]],
        "solve_options_all": [0, 4, "solve", [P9, {"solver": "bitmask", "limit": 1,
                                                    "timeout_ms": 5000, "extra": True}]],
        "solve_nil_options": [0, 5, "solve", [P9, None]],
        "ping": [0, 6, "ping", []],
        "solvers": [0, 7, "solvers", []],
        "stats": [0, 4294967295, "stats", []],
        "cancel": [2, "cancel", [1]],
        "bad_limit": [0, 8, "solve", [P9, {"limit": 0}]],
        "bad_types": [0, "x", 3, {}],
        "bad_puzzle_row": [0, 9, "solve", [BAD_ROW]],
        "bad_puzzle_short": [0, 10, "solve", ["12345"]],
        "unknown_method": [0, 11, "frobnicate", []],
        "unknown_solver": [0, 12, "solve", [P9, {"solver": "x" * 40}]],
        "response_shape": [1, 13, None, "pong"],
    }
    out = {k: pack(v) for k, v in r.items()}
    out["pipelined"] = b"".join(pack([0, i, "ping", []]) for i in range(5)) + pack(
        [0, 5, "solve", [P9]])
    out["array32_huge"] = b"\x94\x00\x01\xa5solve\xdd\xff\xff\xff\xff"
    out["str32_huge"] = b"\x94\x00\x01\xa5solve\x91\xdb\x7f\xff\xff\xff"
    out["deep"] = b"\x91" * 40 + b"\xc0"
    out["garbage"] = b"\xc1\x00GET / HTTP/1.1\r\n"
    out["truncated"] = pack([0, 14, "solve", [P9]])[:-10]
    return out


def mpscan_seeds():
    """Prefix: 2 bytes of (max_size - 1), 1 byte of depth limit."""
    lim = b"\xff\xff\x20"
    objs = {k: lim + v for k, v in requests().items()}
    objs["small_limit"] = b"\x00\x10\x20" + pack([0, 1, "ping", []])
    objs["depth_1"] = b"\xff\xff\x01" + pack([[1]])
    objs["scalars"] = lim + pack([None, True, False, -1, 300, 70000, 2**40, -2**40, 1.5,
                                  b"bin", {"k": "v"}])
    objs["ext"] = lim + b"\xd4\x01\x02"
    objs["map16"] = lim + b"\xde\x00\x01\xa1k\xc0"
    return objs


def inputs():
    """Prefix byte: 0 auto, 1 line, 2 grid."""
    return {
        "judge": b"\x00" + JUDGE.encode(),
        "lines": b"\x00# comment\n\n" + (P9 + "\n" + P4 + "\n" + P16 + "\n").encode(),
        "mixed": b"\x01" + (P9 + "\n12345\n" + P9.replace(".", "0") + "Z\n").encode(),
        "grid_short": b"\x02" + "\n".join(JUDGE.splitlines()[:5]).encode() + b"\n\n1 2 3\n",
        "crlf": b"\x00" + (P9 + "\r\n" + P4.lower() + "\r\n").encode(),
        "long_line": b"\x01" + b"1" * 9000 + b"\n" + P9.encode(),
    }


def codecs():
    return {
        "line9": P9.encode(),
        "line4": P4.encode(),
        "line16": P16.encode(),
        "line16_lower": P16.lower().encode(),
        "zeros": P9.replace(".", "0").encode(),
        "spaced": " ".join(P9).encode(),
        "judge9": JUDGE.encode(),
        "bad_row": BAD_ROW.encode(),
        "bad_symbol": (P9[:40] + "Z" + P9[41:]).encode(),
        "solved4": b"1234341221434321",
        "judge_25": (" ".join(["0"] * 625)).encode(),
    }


def write(target, seeds):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    for name in os.listdir(d):
        os.unlink(os.path.join(d, name))
    for name, data in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    write("rpc", requests())
    write("mpscan", mpscan_seeds())
    write("input", inputs())
    write("codec", codecs())
