#!/bin/sh
# test.sh -- install what is missing, build, and run the whole test suite.
#
# What CI runs (.ci/run), in order; any failure fails the whole run:
#   0. lint:        clang-format and cppcheck (scripts/lint.sh);
#   1. build/       Release build (-O3, and -g for stage 4) with -Werror, full
#                   ctest suite;
#   2. build-asan/  AddressSanitizer + UBSan (gcc, -O1), full ctest suite, the
#                   heavy corpus tests on a sample (tests/sanitizer.h);
#   3. build-tsan/  ThreadSanitizer, the daemon's concurrency and load tests
#                   (scripts/tsan.sh);
#   4. build/ again: the integration tests with the daemon under valgrind
#                   memcheck: zero errors, zero leaks (scripts/valgrind.sh);
#   5. build-fuzz/  each libFuzzer target for FUZZ_SECONDS (default 15 here) under
#                   ASan+UBSan (scripts/fuzz.sh).
# SUDOKU_QUICK=1 runs stages 1 and 2 only.
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

sh scripts/lint.sh
run_suite build -DCMAKE_BUILD_TYPE=Release "-DCMAKE_C_FLAGS_RELEASE=-O3 -DNDEBUG -g"
# -O1 (asserts kept): the same reports, and the suite runs a sixth faster
# than at -O0.
CC=gcc run_suite build-asan -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_C_FLAGS_DEBUG=-O1 -g" -DSUDOKU_SANITIZE=ON
if [ "${SUDOKU_QUICK:-0}" != 1 ]; then
    TSAN_LABELS="daemon load" sh scripts/tsan.sh
    VG_BUILD=build sh scripts/valgrind.sh
    FUZZ_SECONDS=${FUZZ_SECONDS:-15} sh scripts/fuzz.sh # the suite's share; fuzz.sh alone: 60
fi
echo "== all suites passed"
