#!/bin/sh
# test.sh -- install what is missing, build, and run the whole test suite.
#
# Two builds, each from scratch in its own directory: a normal one with
# -Werror (build/) and one under AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan/, gcc).  ctest runs the full suite in both.  Exit status is
# non-zero when anything fails.  This is what CI runs (.ci/run).
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh

jobs=$(nproc 2>/dev/null || echo 2)

run_suite() {
    dir=$1
    shift
    echo "== $dir: configure $*"
    cmake -S . -B "$dir" -DSUDOKU_WERROR=ON "$@" >/dev/null
    echo "== $dir: build"
    cmake --build "$dir" -j "$jobs" >/dev/null
    echo "== $dir: test"
    ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

run_suite build -DCMAKE_BUILD_TYPE=RelWithDebInfo
CC=gcc run_suite build-asan -DCMAKE_BUILD_TYPE=Debug -DSUDOKU_SANITIZE=ON
echo "== all suites passed"
