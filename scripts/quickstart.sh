#!/bin/sh
# quickstart.sh -- install what is missing, build, and run the main job once:
# start sudokud on a temporary socket, solve the judge example through the
# client, stop the daemon.  Leaves the build in build/ (SUDOKU_BUILD_DIR
# moves it) and the daemon's log in build/quickstart-sudokud.log, out of the
# way of what the person reads: the puzzle and its solution.
set -eu
cd "$(dirname "$0")/.."
sh scripts/deps.sh
build=${SUDOKU_BUILD_DIR:-build}

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S . -B "$build" >/dev/null
cmake --build "$build" -j "$jobs" >/dev/null

dir=$(mktemp -d)
sock="$dir/sudokud.sock"
log="$build/quickstart-sudokud.log"
"$build/bin/sudokud" -s "$sock" 2>"$log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT INT TERM

# Wait (up to 5 s) until the daemon answers.
i=0
until "$build/bin/sudoku" -s "$sock" ping >/dev/null 2>&1; do
    i=$((i + 1))
    if [ "$i" -gt 50 ]; then
        echo "quickstart: sudokud did not come up on $sock; its log ($log):" >&2
        cat "$log" >&2
        exit 1
    fi
    sleep 0.1
done

echo "== puzzle (examples/judge.txt)"
cat examples/judge.txt
echo "== solution from sudokud, via: sudoku -s $sock < examples/judge.txt"
"$build/bin/sudoku" -s "$sock" < examples/judge.txt

kill -TERM "$pid"
wait "$pid"
echo "== sudokud stopped cleanly (its log: $log)"
