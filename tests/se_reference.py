#!/usr/bin/python3
"""se_reference.py -- the recorded Sudoku Explainer ratings hold together.

bench/data/serate/*.txt are SE's raw outputs on the shared data sets' samples
(the yardstick of `rate`, issue 30) and tests/data/se_ratings.txt is the part
of them `rate` matches.  This checks, without SE: every reference line reads
through scripts/se_compare.py as a puzzle of 81 cells with ratings on SE's
scale, ER >= EP >= ED as SE defines them, the count the header states; every
golden line is a puzzle of the reference data with the same three ratings; and
se_compare's reading of serate's times.  Exit 0 when all hold, 1 otherwise.

usage: se_reference.py SOURCE_DIR
"""
import glob
import os
import re
import sys


def check(ok, what, failures):
    if not ok:
        failures.append(what)


def reference_rows(path, failures):
    """The rows of one reference file, checked one by one."""
    rows = se_compare.read_se(path)
    with open(path) as f:
        header = ''.join(line for line in f if line.startswith('#'))
    stated = re.search(r'\((\d+) puzzles\)', header)
    check(stated and int(stated.group(1)) == len(rows),
          f'{path}: header says {stated and stated.group(1)} puzzles, file has {len(rows)}', failures)
    for p, er, ep, ed, secs in rows:
        check(len(p) == 81 and all(c in '.0123456789' for c in p), f'{path}: bad puzzle {p}', failures)
        check(1.0 <= ed <= ep <= er <= 12.0, f'{path}: {p} ratings {er}/{ep}/{ed} off SE scale',
              failures)
        check(secs is not None and secs >= 0, f'{path}: {p} has no time', failures)
    return rows


def main(src):
    failures = []
    ref = {}
    paths = sorted(glob.glob(os.path.join(src, 'bench/data/serate/*.txt')))
    check(paths, 'no reference files in bench/data/serate', failures)
    for path in paths:
        for p, er, ep, ed, _ in reference_rows(path, failures):
            ref[p] = (er, ep, ed)
    golden = 0
    with open(os.path.join(src, 'tests/data/se_ratings.txt')) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            p, *r = line.split()
            golden += 1
            check(ref.get(p) == tuple(float(x) for x in r),
                  f'golden {p} {r} is not in the reference data as {ref.get(p)}', failures)
    check(golden > 0, 'golden file has no puzzle', failures)
    for text, want in (('0.47s', 0.47), ('7m54s', 474), ('1h02m', 3720), ('2d03h', 183600),
                       ('12:00', None), ('', None), ('5s7', None)):
        got = se_compare.seconds(text)
        check(got == want if want is None else got is not None and abs(got - want) < 1e-9,
              f'seconds({text!r}) = {got}, want {want}', failures)
    for what in failures:
        print('se_reference:', what)
    print(f'se_reference: {len(ref)} reference puzzles in {len(paths)} files, {golden} golden, '
          f'{len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.path.insert(0, os.path.join(sys.argv[1], 'scripts'))
    import se_compare  # noqa: E402  (found through SOURCE_DIR/scripts)
    sys.exit(main(sys.argv[1]))
