#!/bin/sh
# quickstart_log.sh -- the quick start shows the puzzle and its solution, and
# keeps the daemon's log out of the way, in a file it names.
#
#   quickstart_log.sh SRC_DIR BUILD_DIR
#
# Runs scripts/quickstart.sh on BUILD_DIR (SUDOKU_BUILD_DIR; configured and
# built already, so its cmake steps change nothing): it must exit 0, print
# the judge example's solution, print no line of the daemon's log, and name
# the file that holds it, in which the daemon said it was serving and stopped.
set -eu
src=$1 build=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT INT TERM
fail() {
    echo "FAIL: $*" >&2
    cat "$out" >&2
    exit 1
}
SUDOKU_BUILD_DIR="$build" sh "$src/scripts/quickstart.sh" >"$out" 2>&1 || fail "quickstart.sh exited $?"
grep -qx '5 3 4 6 7 8 9 1 2' "$out" || fail "no solution printed"
! grep -q '^sudokud: ' "$out" || fail "the daemon's log is in the person's way"
log="$build/quickstart-sudokud.log"
grep -qF "(its log: $log)" "$out" || fail "the log file is not named"
grep -q 'info: serving on' "$log" && grep -q 'info: stopped' "$log" ||
    fail "the log file lacks the daemon's lines: $(cat "$log")"
echo "quickstart: solution shown, daemon log in $log"
