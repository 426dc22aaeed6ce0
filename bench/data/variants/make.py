#!/usr/bin/env python3
"""make.py -- the 9x9 variant benchmark files of bench/data/variants.

For each rule (and classic, the anchor) draw COUNT solution grids (a random
first row solved by the plugin), then dig: remove givens in a random order
while the puzzle stays unique (killer: random cages of 2-4 cells over the
grid, no givens, redrawn until unique).  Every count is the plugin's,
through `sudoku --local --unique` on JSON lines; the benchmark recounts and
the host checks every answer against every rule.  Usage:

    make.py SUDOKU_BIN PLUGIN_DIR OUT_DIR [COUNT] [SEED]
"""
import json
import random
import subprocess
import sys

JIGSAW = ["111222333111222333111252633444255636444555666447555666477778999778888999778888999",
          "111223333111222233114222333144555666444555666444558666777588999777888899777889999",
          "111222333112222333111125363445525663444555566744456666774888999778888999777788999"]
RULES = {"classic": {}, "x": {"diagonals": True}, "windoku": {"windows": True},
         "jigsaw": None, "anti_knight": {"anti_knight": True}, "killer": None}


def run(tool, plugins, recs, limit):
    """Counts (up to limit) and first solutions of recs, one process."""
    text = "".join(json.dumps(r) + "\n" for r in recs)
    out = subprocess.run([tool, "--local", "-P", plugins, "--solver", "bitmask", "--limit",
                          str(limit), "--json", "-"], input=text, capture_output=True,
                         text=True, check=False).stdout
    res = [json.loads(l) for l in out.splitlines() if l.startswith("{")]
    return [(r.get("count", 0), r.get("solution")) for r in res]


def grids(tool, plugins, rules_of, count, rng):
    out = []
    while len(out) < count:
        recs = []
        for _ in range(count - len(out)):
            row = rng.sample("123456789", 9)
            recs.append({"puzzle": "".join(row) + "." * 72, "rules": rules_of()})
        for rec, (n, sol) in zip(recs, run(tool, plugins, recs, 1)):
            if n:
                out.append((rec["rules"], sol))
    return out


def dig(tool, plugins, items, rng):
    """items: (rules, solution); removes givens while unique, all in step."""
    puzzles = [list(sol) for _, sol in items]
    orders = [rng.sample(range(81), 81) for _ in items]
    for step in range(81):
        recs = []
        for (rules, _), p, o in zip(items, puzzles, orders):
            q = list(p)
            q[o[step]] = "."
            recs.append({"puzzle": "".join(q), "rules": rules})
        for i, (n, _) in enumerate(run(tool, plugins, recs, 2)):
            if n == 1:
                puzzles[i][orders[i][step]] = "."
    return [{"puzzle": "".join(p), "rules": r} for (r, _), p in zip(items, puzzles)]


def cages_over(sol, rng):
    left = set(range(81))
    cages = []
    while left:
        c = rng.choice(sorted(left))
        cage, size = [c], rng.choice([2, 2, 3, 3, 3, 4])
        left.discard(c)
        while len(cage) < size:
            nb = [x for y in cage for x in (y - 9, y + 9, y - 1 if y % 9 else -1,
                  y + 1 if y % 9 != 8 else -1) if x in left and sol[x] not in
                  [sol[z] for z in cage]]
            if not nb:
                break
            x = rng.choice(nb)
            cage.append(x)
            left.discard(x)
        cages.append([sum(int(sol[x]) for x in cage), sorted(cage)])
    return cages


def killers(tool, plugins, count, rng):
    sols = [s for _, s in grids(tool, plugins, lambda: {}, count, rng)]
    out = [None] * count
    while None in out:
        todo = [i for i in range(count) if out[i] is None]
        recs = [{"puzzle": "." * 81, "rules": {"cages": cages_over(sols[i], rng)}} for i in todo]
        for i, rec, (n, _) in zip(todo, recs, run(tool, plugins, recs, 2)):
            if n == 1:
                out[i] = rec
    return out


def main():
    tool, plugins, out_dir = sys.argv[1:4]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 50
    rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 28)
    for name, rules in RULES.items():
        if name == "killer":
            recs = killers(tool, plugins, count, rng)
        else:
            rules_of = (lambda: {"regions": rng.choice(JIGSAW)}) if rules is None else \
                (lambda r=rules: dict(r))
            recs = dig(tool, plugins, grids(tool, plugins, rules_of, count, rng), rng)
        with open(f"{out_dir}/{name}.jsonl", "w") as f:
            f.write(f"# bench/data/variants/{name}.jsonl: {count} 9x9 puzzles, unique, "
                    f"made by make.py (seed {sys.argv[5] if len(sys.argv) > 5 else 28})\n")
            for r in recs:
                if name == "classic":
                    f.write(r["puzzle"] + "\n")
                else:
                    f.write(json.dumps(r, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
