#!/usr/bin/env python3
# render_svg.py -- the tool's SVG read by python3's own XML parser.
#
# usage: render_svg.py SUDOKU PLUGIN_DIR DATA_DIR
#
# An independent reader of what tool/render_svg.c writes: every picture must
# parse as XML (xml.etree), be an <svg> root with a size, and hold exactly one
# bold <text> a given; a page of four puzzles holds the givens of all four and
# four captions; a hint's picture circles as many cells as the hint places and
# strikes as many candidates as it eliminates (compared with hint --json).
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def run(sudoku, plugins, args):
    out = subprocess.run([sudoku] + args + ["--local", "-P", plugins], check=True,
                         capture_output=True)
    return out.stdout


def parse(svg_bytes):
    root = ET.fromstring(svg_bytes)
    assert root.tag == NS + "svg", root.tag
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    return root


def texts(root, bold=None):
    found = []
    for t in root.iter(NS + "text"):
        if bold is None or (t.get("font-weight") == "bold") == bold:
            found.append(t.text or "")
    return found


def puzzles(path, count):
    lines = [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]
    return [l for l in lines if len(l) == 81][:count]


def main():
    sudoku, plugins, data = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as tmp:
        # One puzzle a page, then four on one page.
        four = puzzles(os.path.join(data, "client_lines.txt"), 4)
        assert len(four) == 4
        path = os.path.join(tmp, "four.txt")
        with open(path, "w") as f:
            f.write("\n".join(four) + "\n")
        one = os.path.join(tmp, "one.txt")
        with open(one, "w") as f:
            f.write(four[0] + "\n")
        root = parse(run(sudoku, plugins, ["render", one]))
        givens = [c for c in four[0] if c != "."]
        assert sorted(texts(root, bold=True)) == sorted(givens), "one puzzle's givens"
        root = parse(run(sudoku, plugins, ["render", "--per-page", "4", path]))
        all_givens = sum(len([c for c in p if c != "."]) for p in four)
        assert len(texts(root, bold=True)) == all_givens, "four puzzles' givens"
        captions = [t for t in texts(root, bold=False) if "four.txt:" in t]
        assert len(captions) == 4, captions

        # A hint: its placements circled, its eliminations struck (red).
        hint = os.path.join(tmp, "hint.txt")
        with open(hint, "w") as f:  # norvig_top95 line 54: a pointing pair first
            f.write("9.4..5...25.6..1..31......8.7...9...4..26......147....7.......2...3..8.6.4.....9.\n")
        answer = json.loads(run(sudoku, plugins, ["hint", "--json", hint]))
        step = answer["steps"][0]
        root = parse(run(sudoku, plugins, ["hint", "--format", "svg", "--candidates", hint]))
        circles = list(root.iter(NS + "circle"))
        assert len(circles) == len(step["placements"]), (len(circles), step)
        struck = [t for t in root.iter(NS + "text") if t.get("fill") == "#d0302f"]
        assert len(struck) == len(step["eliminations"]), (len(struck), step)
        shaded = [r for r in root.iter(NS + "rect") if r.get("fill") == "#ffdf80"]
        assert len(shaded) == len(set(step["cells"]) - {p[0] for p in step["placements"]}), step
    print("render_svg: ok")


if __name__ == "__main__":
    main()
