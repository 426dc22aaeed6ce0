#!/bin/sh
# tsan.sh -- the daemon's concurrency tests under ThreadSanitizer.
#
# Usage: scripts/tsan.sh [extra ctest arguments]
# Environment: TSAN_BUILD (default build-tsan), TSAN_JOBS (default 2),
#              TSAN_LABELS (default "core daemon load"), TSAN_CC (default gcc:
#              clang does not link the TSan runtime into shared objects, and
#              the plugins are linked with -z defs).
# Configures a separate tree with -DSUDOKU_TSAN=ON (everything, the daemon,
# its plugins and the tests, is instrumented), builds it and runs the tests
# with those labels; any data race report fails the test that saw it
# (halt_on_error), so the script's exit status is ctest's.
set -eu
cd "$(dirname "$0")/.."

build=${TSAN_BUILD:-build-tsan}
jobs=${TSAN_JOBS:-2}
labels=${TSAN_LABELS:-core daemon load}

CC=${TSAN_CC:-gcc} cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DSUDOKU_TSAN=ON -DSUDOKU_WERROR=ON >/dev/null
# Only what the labels run: their test programs, whose dependencies (the
# daemon, the plugins, the test plugins) CMake knows; everything when one of
# their tests is not a program of the tree.
regex="^($(printf '%s' "$labels" | tr -s ' ' '|'))\$"
tests=$(ctest --test-dir "$build" -N -L "$regex" | sed -n 's/^ *Test *#[0-9]*: *//p')
known=$(cmake --build "$build" --target help | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p')
targets=""
for t in $tests; do
    if printf '%s\n' "$known" | grep -qx "$t"; then
        targets="$targets $t"
    else
        targets=""
        break
    fi
done
# shellcheck disable=SC2086
cmake --build "$build" -j "$jobs" ${targets:+--target $targets} >/dev/null

# halt_on_error: a race ends the process, so the test fails.  log_path: every
# instrumented process (tests and the daemons they spawn, whose stderr the
# tests keep in temporary directories) writes its reports to one place, and
# any report there fails the script even if a test missed the crash.
reports="$(pwd)/$build/tsan-reports"
rm -rf "$reports"
mkdir -p "$reports"
chmod 1777 "$reports" # some tests run the daemon as nobody
# The suppressions (scripts/tsan.supp says why) go where a daemon run as
# nobody can read them: the checkout may sit below a folder only root enters.
supp=$(mktemp -d /tmp/sudokud-tsan.XXXXXX)
chmod 0755 "$supp"
cp scripts/tsan.supp "$supp/tsan.supp"
chmod 0644 "$supp/tsan.supp"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 log_path=$reports/report suppressions=$supp/tsan.supp ${TSAN_OPTIONS:-}"
export TSAN_OPTIONS
status=0
for label in $labels; do
    echo "== tsan: ctest -L $label"
    ctest --test-dir "$build" -L "^$label\$" --output-on-failure -j "$jobs" "$@" || status=1
done
for r in "$reports"/report.*; do
    [ -e "$r" ] || continue
    echo "== tsan: report $r:"
    head -30 "$r"
    status=1
done
rm -rf "$supp"
[ $status -eq 0 ] && echo "== tsan: no data race reported" || echo "== tsan: FAILED"
exit $status
