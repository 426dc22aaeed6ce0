#!/bin/sh
# fuzz.sh -- build the libFuzzer targets and run each for a bounded time.
#
# Usage: scripts/fuzz.sh [TARGET...]        (default: codec mpscan rpc input)
# Environment:
#   FUZZ_SECONDS  seconds per target (default 60)
#   FUZZ_BUILD    build directory (default build-fuzz)
#   FUZZ_JOBS     parallel build jobs and targets run at once (default 2)
# Builds fuzz/ standalone with clang -fsanitize=fuzzer,address,undefined, then
# runs each target from its seed corpus (fuzz/corpus/<target>, never written
# to) plus a working corpus in the build directory that grows across runs.
# Any crash, leak, sanitizer report or broken invariant fails the script; the
# input is left in $FUZZ_BUILD/artifacts/ and must become a regression file in
# fuzz/regress/<target>/ (the test suite replays those on every ctest).
# Prints one summary line per target and exits non-zero if any target failed.
set -eu
cd "$(dirname "$0")/.."

seconds=${FUZZ_SECONDS:-60}
build=${FUZZ_BUILD:-build-fuzz}
jobs=${FUZZ_JOBS:-2}
targets=${*:-codec mpscan rpc input}

command -v clang >/dev/null || { echo "fuzz.sh: clang is needed (apt-get install clang)" >&2; exit 2; }
CC=clang cmake -S fuzz -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j "$jobs" >/dev/null

# run_one TARGET: one target for $seconds; its status goes to fuzz_TARGET.rc.
run_one() {
    t=$1
    work="$build/corpus/$t"
    mkdir -p "$work"
    rc=0
    "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 \
        -max_len=16384 -print_final_stats=1 -artifact_prefix="$build/artifacts/${t}-" \
        "$work" "fuzz/corpus/$t" >"$build/fuzz_$t.log" 2>&1 || rc=$?
    echo "$rc" >"$build/fuzz_$t.rc"
}

# $jobs targets at a time (each libFuzzer process is one thread), then one
# summary line per target, in order.
mkdir -p "$build/artifacts"
running=0
for t in $targets; do
    run_one "$t" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait
        running=0
    fi
done
wait
failed=0
for t in $targets; do
    log="$build/fuzz_$t.log"
    if [ "$(cat "$build/fuzz_$t.rc")" = 0 ]; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
        cov=$(grep -Eo 'cov: [0-9]+' "$log" | tail -1 | cut -d' ' -f2)
        echo "fuzz $t: ok, ${runs:-?} runs in ${seconds}s, coverage ${cov:-?} edges, corpus $(ls "$build/corpus/$t" | wc -l) files"
    else
        echo "fuzz $t: FAILED (log $log, inputs in $build/artifacts/)"
        grep -E 'ERROR|invariant broken|SUMMARY' "$log" | head -5
        failed=1
    fi
done
exit $failed
