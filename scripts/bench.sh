#!/bin/sh
# bench.sh -- rerun the measurements of docs/performance.md.
#
#   scripts/bench.sh [BUILD_DIR] [DATA_DIR]
#
# BUILD_DIR (default build-bench) must hold a RelWithDebInfo build with
# bin/sudokud and bin/sudoku-bench; DATA_DIR (default ../shared/data from the
# repository root) the real puzzle sets.  Prints the machine load, then every
# figure the document quotes, each run twice, as JSON lines.  The daemon runs
# on a temporary socket with its default two workers and is stopped at the end.
# The dfs sample takes about a minute and a half; everything else seconds.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-bench}
data=${2:-$root/../shared/data}
bench=$build/bin/sudoku-bench
sudokud=$build/bin/sudokud
if [ ! -x "$bench" ] || [ ! -x "$sudokud" ]; then
    echo "bench.sh: build $build first" >&2
    exit 2
fi
[ -r "$data/17_clue.txt" ] || { echo "bench.sh: no puzzle sets in $data" >&2; exit 2; }

tmp=$(mktemp -d)
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

echo "# $(uptime)"
echo "# in process, one thread, limit 2"
for i in 1 2; do
    "$bench" --solver bitmask,dlx --json "$data/17_clue.txt" "$data/forum_hardest_1905_11.txt"
done
head -2000 "$data/forum_hardest_1905_11.txt" >"$tmp/forum_hardest_2000.txt"
"$bench" --solver dfs --timeout-ms 1000 --json "$tmp/forum_hardest_2000.txt"

"$sudokud" -s "$tmp/x.sock" 2>"$tmp/sudokud.log" &
pid=$!
i=0
while [ ! -S "$tmp/x.sock" ]; do
    i=$((i + 1))
    [ $i -lt 100 ] || { echo "bench.sh: sudokud did not start" >&2; cat "$tmp/sudokud.log" >&2; exit 1; }
    sleep 0.05
done

echo "# $(uptime)"
echo "# through sudokud: pipelined throughput, bitmask, limit 2"
for _ in 1 2; do
    for c in 1 2 3 4; do
        for d in 16 64 256; do
            "$bench" --socket "$tmp/x.sock" --solver bitmask --limit 2 --connections "$c" \
                --depth "$d" --json "$data/17_clue.txt"
        done
    done
done
echo "# through sudokud: one request at a time (first run is the warm-up)"
for i in 0 1 2 3 4; do
    "$bench" --socket "$tmp/x.sock" --solver bitmask --depth 1 --repeat 20 --json \
        "$data/kaggle_sample.txt"
done
echo "# through sudokud: resident memory with 256 idle connections"
"$bench" --socket "$tmp/x.sock" --idle-connections 256 --json
echo "# $(uptime)"
