#!/bin/sh
# valgrind.sh -- the integration suite with the daemon under valgrind memcheck.
#
# Usage: scripts/valgrind.sh [extra ctest arguments]
# Environment: VG_BUILD (default build-valgrind), VG_JOBS (default 2),
#              VG_LABELS (default "daemon client load").
# Builds a plain tree (valgrind and ASan do not mix), then replaces
# bin/sudokud with a small script that execs the real binary under
# valgrind --leak-check=full.  The tests find the daemon by its build path,
# so every daemon they start runs under memcheck with no change to them.
# --fair-sched=yes: valgrind runs one thread at a time, and without a fair
# lock two workers grinding a dfs solve can starve the event loop for
# seconds, which the tests (rightly) read as an unresponsive daemon.
# Each daemon writes its own log (vg.<pid>.log) into a fresh directory under
# /tmp that anyone may write, since some tests run the daemon as nobody and
# the build tree may sit below a folder only root can enter; the script fails
# when any log reports an error or a definite, indirect or possible leak.
# Logs without a summary belong to daemons a test killed on purpose (SIGKILL)
# and are counted, not judged.  The real binary goes back in place when the
# script exits, and at its start if an earlier run was cut short.
set -eu
cd "$(dirname "$0")/.."

build=${VG_BUILD:-build-valgrind}
jobs=${VG_JOBS:-2}
labels=${VG_LABELS:-daemon client load}

command -v valgrind >/dev/null || { echo "valgrind.sh: apt-get install valgrind" >&2; exit 2; }
# A tree configured before keeps its settings (test.sh hands over its Release
# tree, built with -g, and saves a build); a new one is RelWithDebInfo.
[ -f "$build/CMakeCache.txt" ] || cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# A run cut short leaves the wrapper in place: put the real binary back.
[ -f "$build/bin/sudokud.real" ] && mv -f "$build/bin/sudokud.real" "$build/bin/sudokud"
cmake --build "$build" -j "$jobs" >/dev/null

logs=$(mktemp -d /tmp/sudokud-vg.XXXXXX)
chmod 1777 "$logs" # some tests run the daemon as nobody
# ... who may not reach the checkout (a mktemp -d clone is 0700): the
# suppressions go beside the logs.
cp scripts/valgrind.supp "$logs/valgrind.supp"
chmod 0644 "$logs/valgrind.supp"
mv "$build/bin/sudokud" "$build/bin/sudokud.real"
trap 'mv -f "$build/bin/sudokud.real" "$build/bin/sudokud"' EXIT
cat >"$build/bin/sudokud" <<WRAP
#!/bin/sh
exec valgrind --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect,possible \\
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99 \\
    --track-fds=no --fair-sched=yes --log-file=$logs/vg.%p.log \\
    --suppressions=$logs/valgrind.supp \\
    "\$(dirname "\$0")/sudokud.real" "\$@"
WRAP
chmod +x "$build/bin/sudokud"

status=0
export SUDOKU_VALGRIND=1 # tests that cannot hold under valgrind skip (test_emfile_keeps_serving)
for label in $labels; do
    echo "== valgrind: ctest -L $label"
    # Two at a time: a daemon under valgrind runs one thread at a time, so
    # two of them keep two cores busy, and their tests' bounds are wide.
    ctest --test-dir "$build" -L "^$label\$" --output-on-failure -j "$jobs" "$@" || status=1
done

runs=0 clean=0 killed=0
for log in "$logs"/vg.*.log; do
    [ -e "$log" ] || continue
    runs=$((runs + 1))
    if ! grep -q 'ERROR SUMMARY:' "$log"; then
        killed=$((killed + 1))
    elif grep -q 'ERROR SUMMARY: 0 errors' "$log"; then
        clean=$((clean + 1))
    else
        echo "== valgrind: errors in $log:"
        grep -E 'ERROR SUMMARY|definitely lost|indirectly lost|possibly lost|Invalid|uninitialised' "$log" | head -20
        status=1
    fi
done
echo "valgrind: $runs daemon runs, $clean with 0 errors and 0 leaks, $killed killed before exit"
[ "$runs" -gt 0 ] || { echo "== valgrind: no daemon ran" >&2; status=1; }
if [ "$status" -eq 0 ]; then
    rm -rf "$logs"
else
    echo "== valgrind: logs kept in $logs"
fi
exit $status
