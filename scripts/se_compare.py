#!/usr/bin/python3
"""se_compare.py -- how far `sudoku rate` agrees with Sudoku Explainer's serate.

Reads serate's output files (one "PUZZLE ED=ER/EP/ED SECONDS" line a puzzle, the
format given as --format='%g ED=%r/%p/%d %e'), rates the same puzzles with
`SUDOKU rate --local --json` and prints, per file, how many ratings agree:
exactly, within 0.1, and in the same difficulty band (docs/techniques.md).  EP
and ED are compared when the answer carries them.  With --golden FILE it also
writes the puzzles whose ratings all agree, as tests/data/se_ratings.txt holds
them ("PUZZLE ER EP ED", after a header said by --header FILE).

usage: se_compare.py [--golden OUT --header HEADER] SUDOKU SE_OUTPUT...
"""
import json
import subprocess
import sys

BANDS = ((2.3, 'easy'), (3.4, 'medium'), (5.4, 'hard'), (7.0, 'expert'))


def band(r):
    """The difficulty band of rating r."""
    for lim, name in BANDS:
        if r <= lim + 1e-9:
            return name
    return 'extreme'


def read_se(path):
    """serate's lines: (puzzle, er, ep, ed)."""
    rows = []
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 2 or not fields[1].startswith('ED='):
                continue
            er, ep, ed = (float(x) for x in fields[1][3:].split('/'))
            rows.append((fields[0], er, ep, ed))
    return rows


def rate(sudoku, puzzles):
    """Our answers, one JSON object a puzzle, in order."""
    out = subprocess.run([sudoku, 'rate', '--local', '--json'], input='\n'.join(puzzles) + '\n',
                         capture_output=True, text=True, check=False).stdout
    return [json.loads(line) for line in out.splitlines()]


def same(a, b):
    return b is not None and abs(a - b) < 1e-6


def main(argv):
    golden, header = None, None
    while argv and argv[0].startswith('--'):
        opt = argv.pop(0)
        if opt == '--golden':
            golden = argv.pop(0)
        elif opt == '--header':
            header = argv.pop(0)
        else:
            sys.exit(__doc__)
    if len(argv) < 2:
        sys.exit(__doc__)
    sudoku, keep = argv[0], []
    print('| data set | puzzles | ER exact | ER within 0.1 | same band | EP exact | ED exact |')
    print('|---|---:|---:|---:|---:|---:|---:|')
    for path in argv[1:]:
        rows = read_se(path)
        name = path.rsplit('/', 1)[-1].rsplit('.', 1)[0]
        n = len(rows)
        if n == 0:  # a file serate is still writing, or not its output
            print(f'| {name} | 0 | - | - | - | - | - |')
            continue
        ours = rate(sudoku, [r[0] for r in rows])
        count = [0] * 5
        for (p, er, ep, ed), o in zip(rows, ours):
            r = o.get('rating', 0.0)
            hits = (same(r, er), abs(r - er) < 0.1 + 1e-6, band(r) == band(er),
                    same(ep, o.get('ep')), same(ed, o.get('ed')))
            count = [c + h for c, h in zip(count, hits)]
            if hits[0] and (o.get('ep') is None or (hits[3] and hits[4])):
                keep.append(f'{p} {er:.1f} {ep:.1f} {ed:.1f}')
        pct = ' | '.join(f'{c} ({100 * c / n:.0f}%)' for c in count)
        print(f'| {name} | {n} | {pct} |')
    if golden:
        with open(golden, 'w') as f:
            if header:
                with open(header) as h:
                    f.write(h.read())
            f.write('\n'.join(keep) + '\n')


if __name__ == '__main__':
    main(sys.argv[1:])
