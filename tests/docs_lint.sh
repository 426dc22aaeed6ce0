#!/bin/sh
# docs_lint.sh -- the man pages and the Markdown tables read as written.
#
#   docs_lint.sh SRC_DIR
#
# 1. Every man page in docs/ (*.1 .. *.8) passes `mandoc -T lint -W style`
#    and `groff -ww -z -man` without one message (either tool may be absent,
#    not both: Debian packages mandoc and groff-base; scripts/deps.sh installs
#    mandoc).  Lint catches a code block opened twice (.EX with no .EE: the
#    prose after it is set as code), an unparsable date, long source lines.
# 2. In each page's SYNOPSIS, every form starts on a line of its own: a
#    `.B NAME` line (NAME from .TH) follows .SH, .br, .PP, .LP or .sp, else
#    troff runs two forms together on one output line.
# 3. No Markdown table in README.md or docs/*.md is split by a blank line
#    (the rows after it are no longer part of the table; a new table after a
#    blank line, with its own header and delimiter rows, is fine).
# Exit 77 (skip) when neither mandoc nor groff is installed.
set -eu
src=$1
bad=0
has_mandoc=0 has_groff=0
command -v mandoc >/dev/null 2>&1 && has_mandoc=1
command -v groff >/dev/null 2>&1 && has_groff=1
if [ $has_mandoc -eq 0 ] && [ $has_groff -eq 0 ]; then
    echo "SKIP: neither mandoc nor groff is installed"
    exit 77
fi

npages=0
for page in "$src"/docs/*.[1-8]; do
    [ -e "$page" ] || continue
    npages=$((npages + 1))
    if [ $has_mandoc -eq 1 ]; then
        out=$(mandoc -T lint -W style "$page" 2>&1) || true
        [ -z "$out" ] || { echo "$out"; bad=1; }
    fi
    if [ $has_groff -eq 1 ]; then
        out=$(groff -ww -z -man "$page" 2>&1) || true
        [ -z "$out" ] || { echo "groff: $page: $out"; bad=1; }
    fi
    out=$(awk -v f="$page" '
        /^\.TH / { name = tolower($2) }
        /^\.SH / { in_syn = ($2 == "SYNOPSIS"); prev = ".SH"; next }
        in_syn && $1 == ".B" && $2 == name && prev !~ /^\.(SH|br|PP|LP|sp)/ {
            printf "%s:%d: synopsis form \"%s\" runs on from the line before\n", f, NR, $0 }
        { prev = $0 }' "$page")
    [ -z "$out" ] || { echo "$out"; bad=1; }
done
[ "$npages" -gt 0 ] || { echo "FAIL: no man pages in $src/docs"; exit 1; }

for md in "$src"/README.md "$src"/docs/*.md; do
    [ -e "$md" ] || continue
    # A row after a blank line that follows a row, unless it heads a new
    # table (the next line is a |---| delimiter row).
    out=$(awk -v f="$md" '
        { line[NR] = $0 }
        END {
            for (i = 1; i <= NR; i++) {
                if (line[i] ~ /^```/) fence = !fence
                if (!fence && i > 2 && line[i] ~ /^\|/ && line[i - 1] ~ /^[ \t]*$/ &&
                    line[i - 2] ~ /^\|/ && line[i + 1] !~ /^\|[ :]*-/)
                    printf "%s:%d: table split by a blank line\n", f, i
            }
        }' "$md")
    [ -z "$out" ] || { echo "$out"; bad=1; }
done

[ $bad -eq 0 ] || { echo "FAIL: see the lines above"; exit 1; }
echo "docs_lint: $npages man pages and the Markdown tables are clean" \
    "(mandoc: $has_mandoc, groff: $has_groff)"
