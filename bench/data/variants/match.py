#!/usr/bin/env python3
"""match.py -- classic puzzles as hard as a variant file's, for the speed anchor.

Issue 28 compares a variant's solving rate with the classic rate "on
comparable puzzles".  classic.jsonl is made as the variant files are (random
grids, dug while unique), but digging under a stronger rule leaves harder
puzzles: the X file rates 8.5 by median, classic.jsonl 2.6.  This script
writes, for each puzzle of a variant file, the classic puzzle of the pools
whose rating (the logic plugin's, SE's scale) is nearest to it, each used
once, so both files have the same ratings.  Usage:

    match.py SUDOKU_BIN PLUGIN_DIR VARIANT.jsonl POOL.txt... > classic_like_V.jsonl

The pools are one-puzzle-a-line files (shared/data: magictour_top1465.txt,
kaggle_sample.txt); ties go to the earlier pool line.
"""
import json
import subprocess
import sys


def ratings(tool, plugins, path):
    """(rating, puzzle) of every puzzle of path, in its order."""
    out = subprocess.run([tool, "rate", "--local", "-P", plugins, "--json", "-w", "1", path],
                         capture_output=True, text=True, check=True).stdout
    rated = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()  # "line" counts every line, 1-based
    return [(r["rating"], puzzle_of(lines[r["line"] - 1])) for r in rated if "rating" in r]


def puzzle_of(line):
    """The puzzle of a plain or a JSON line."""
    line = line.strip()
    return json.loads(line)["puzzle"] if line.startswith("{") else line


def main(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    tool, plugins, variant, pools = argv[1], argv[2], argv[3], argv[4:]
    pool = [p for path in pools for p in ratings(tool, plugins, path)]
    used = [False] * len(pool)
    for want, _ in ratings(tool, plugins, variant):
        best = None
        for i, (got, _) in enumerate(pool):
            if not used[i] and (best is None or abs(got - want) < abs(pool[best][0] - want)):
                best = i
        if best is None:
            sys.exit("match.py: the pools ran out")
        used[best] = True
        print(json.dumps({"puzzle": pool[best][1]}))


if __name__ == "__main__":
    main(sys.argv)
