#!/usr/bin/python3
"""se_compare.py -- how far `sudoku rate` agrees with Sudoku Explainer's serate.

Reads serate's output files (one "PUZZLE ED=ER/EP/ED SECONDS" line a puzzle, the
format given as --format='%g ED=%r/%p/%d %e'; lines starting with '#' are a
header and skipped, so the reference files in bench/data/serate/ serve without
SE present), rates the same puzzles with `SUDOKU rate --local --json` and
prints, per file, how many ratings agree: exactly, within 0.1, and in the same
difficulty band (docs/techniques.md).  EP and ED are compared when the answer
carries them.

Options:
  --golden OUT      also write the puzzles whose ratings all agree, as
                    tests/data/se_ratings.txt holds them ("PUZZLE ER EP ED",
                    after a header said by --header FILE)
  --header FILE     the header of --golden's file
  --list            also print every puzzle whose ER, EP or ED differs:
                    "file puzzle SE=ER/EP/ED ours=ER/EP/ED technique"
  --speed BENCH     also print SE's speed (the sum of its per-puzzle times,
                    %e) against `BENCH --rate --json` on the same puzzles
                    (BENCH is sudoku-bench; one thread, wall clock both)

usage: se_compare.py [--golden OUT --header HEADER] [--list] [--speed BENCH]
                     SUDOKU SE_OUTPUT...
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BANDS = ((2.3, 'easy'), (3.4, 'medium'), (5.4, 'hard'), (7.0, 'expert'))
TIME_UNITS = {'d': 86400, 'h': 3600, 'm': 60, 's': 1}


def band(r):
    """The difficulty band of rating r."""
    for lim, name in BANDS:
        if r <= lim + 1e-9:
            return name
    return 'extreme'


def seconds(text):
    """serate's %e ("0.47s", "7m54s", "1h02m", "1d03h") in seconds; None if absent."""
    parts = re.findall(r'([0-9.]+)([dhms])', text or '')
    if not parts or ''.join(n + u for n, u in parts) != text:
        return None
    return sum(float(n) * TIME_UNITS[u] for n, u in parts)


def read_se(path):
    """serate's lines: (puzzle, er, ep, ed, seconds or None)."""
    rows = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if line.startswith('#') or len(fields) < 2 or not fields[1].startswith('ED='):
                continue
            er, ep, ed = (float(x) for x in fields[1][3:].split('/'))
            rows.append((fields[0], er, ep, ed, seconds(fields[2] if len(fields) > 2 else None)))
    return rows


def rate(sudoku, puzzles):
    """Our answers, one JSON object a puzzle, in order."""
    out = subprocess.run([sudoku, 'rate', '--local', '--json'], input='\n'.join(puzzles) + '\n',
                         capture_output=True, text=True, check=False).stdout
    return [json.loads(line) for line in out.splitlines()]


def bench_rate(bench, puzzles):
    """Puzzles per second of `bench --rate` (through the host) on puzzles; 0 on failure."""
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False) as f:
        f.write('\n'.join(puzzles) + '\n')
    try:
        out = subprocess.run([bench, '--rate', '--json', f.name], capture_output=True,
                             text=True, check=False).stdout
    finally:
        os.unlink(f.name)
    for line in out.splitlines():
        r = json.loads(line)
        if r.get('mode') == 'rate':
            return r.get('puzzles_per_s', 0.0)
    return 0.0


def same(a, b):
    return b is not None and abs(a - b) < 1e-6


def fmt(er, ep, ed):
    return '/'.join('-' if x is None else f'{x:.1f}' for x in (er, ep, ed))


def set_name(path):
    return path.rsplit('/', 1)[-1].rsplit('.', 1)[0]


def agreement(sudoku, paths, keep, listing):
    """Print the agreement table; append agreeing lines to keep, differing ones to listing."""
    print('| data set | puzzles | ER exact | ER within 0.1 | same band | EP exact | ED exact |')
    print('|---|---:|---:|---:|---:|---:|---:|')
    for path in paths:
        rows = read_se(path)
        n = len(rows)
        if n == 0:  # a file serate is still writing, or not its output
            print(f'| {set_name(path)} | 0 | - | - | - | - | - |')
            continue
        ours = rate(sudoku, [r[0] for r in rows])
        count = [0] * 5
        for (p, er, ep, ed, _), o in zip(rows, ours):
            r = o.get('rating', 0.0)
            hits = (same(r, er), abs(r - er) < 0.1 + 1e-6, band(r) == band(er),
                    same(ep, o.get('ep')), same(ed, o.get('ed')))
            count = [c + h for c, h in zip(count, hits)]
            if hits[0] and (o.get('ep') is None or (hits[3] and hits[4])):
                keep.append(f'{p} {er:.1f} {ep:.1f} {ed:.1f}')
            elif listing is not None:
                listing.append(f'{set_name(path)} {p} SE={fmt(er, ep, ed)} '
                               f'ours={fmt(r, o.get("ep"), o.get("ed"))} {o.get("hardest", "")}')
        pct = ' | '.join(f'{c} ({100 * c / n:.0f}%)' for c in count) if n else ''
        print(f'| {set_name(path)} | {n} | {pct} |')


def speed(bench, paths):
    """Print SE's rate (from its own per-puzzle times) against ours on the same puzzles."""
    print()
    print('| data set | puzzles | SE s/puzzle (mean) | SE puzzles/s | ours puzzles/s | ours / SE |')
    print('|---|---:|---:|---:|---:|---:|')
    for path in paths:
        rows = [r for r in read_se(path) if r[4] is not None]
        total = sum(r[4] for r in rows)
        if not rows or total <= 0:
            continue
        se_rate = len(rows) / total
        ours = bench_rate(bench, [r[0] for r in rows])
        ratio = f'{ours / se_rate:,.0f}x' if ours else '-'
        print(f'| {set_name(path)} | {len(rows)} | {total / len(rows):.2f} | {se_rate:.3g} | '
              f'{ours:,.0f} | {ratio} |')


def main(argv):
    golden, header, listing, bench = None, None, None, None
    while argv and argv[0].startswith('--'):
        opt = argv.pop(0)
        if opt == '--golden' and argv:
            golden = argv.pop(0)
        elif opt == '--header' and argv:
            header = argv.pop(0)
        elif opt == '--list':
            listing = []
        elif opt == '--speed' and argv:
            bench = argv.pop(0)
        else:
            sys.exit(__doc__)
    if len(argv) < 2:
        sys.exit(__doc__)
    keep = []
    agreement(argv[0], argv[1:], keep, listing)
    if listing:
        print()
        print('\n'.join(listing))
    if bench:
        speed(bench, argv[1:])
    if golden:
        with open(golden, 'w') as f:
            if header:
                with open(header) as h:
                    f.write(h.read())
            f.write('\n'.join(keep) + '\n')


if __name__ == '__main__':
    main(sys.argv[1:])
