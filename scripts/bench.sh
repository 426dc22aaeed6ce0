#!/bin/sh
# bench.sh -- rerun the measurements of docs/performance.md.
#
#   scripts/bench.sh [BUILD_DIR] [DATA_DIR]
#   scripts/bench.sh --tdoku RUN_BENCHMARK [BUILD_DIR] [DATA_DIR]
#   scripts/bench.sh --isolate [BUILD_DIR] [DATA_DIR]
#
# With --tdoku, the side-by-side mode: RUN_BENCHMARK is tdoku's benchmark
# program, built outside this repository from its public source (see
# docs/performance.md, "Side by side with tdoku"; never committed).  Each
# pair runs alternately, three rounds, on the same file in one run: bitmask
# against tdoku and dlx against fast_solv_9r2 on 17_clue.txt and
# forum_hardest_1905_11.txt, dfs against _tdev_basic (the same row-major
# tree) on the first 1,000 lines of forum_hardest_1905_11.txt.  Single
# thread, limit 2 on both sides, puzzles in file order.  Prints one line per
# round: rates, guesses per puzzle and the ratio ours/theirs.
#
# With --isolate, the cost of plugin worker processes (issue 27): two
# daemons side by side, `sudokud -j 2 --isolate all` and `--isolate none`,
# started once; three alternating rounds, each running on both, in turn,
# bitmask pipelined (17_clue.txt, 3 connections x depth 256, limit 2) and
# one request at a time (kaggle_sample.txt x 20, after a warm-up).  Prints
# one line per round: rates and the ratio all/none, p50 and p99 of each.
#
# BUILD_DIR (default build-bench) must hold a RelWithDebInfo build with
# bin/sudokud and bin/sudoku-bench; DATA_DIR (default ../shared/data from the
# repository root) the real puzzle sets.  Prints the machine load, then every
# figure the document quotes, each run twice, as JSON lines.  The daemon runs
# on a temporary socket with its default two workers and is stopped at the end.
# The dfs sample takes about a minute and a half; everything else seconds.
set -eu
tdoku=""
isolate=""
if [ "${1:-}" = "--isolate" ]; then
    isolate=1
    shift
elif [ "${1:-}" = "--tdoku" ]; then
    tdoku=${2:?bench.sh: --tdoku needs the path of the tdoku run_benchmark program}
    shift 2
    [ -x "$tdoku" ] || { echo "bench.sh: $tdoku is not executable" >&2; exit 2; }
fi
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
    rc=$?
    if [ "$rc" -ne 0 ]; then # what the daemons said, past their start-up lines
        for f in "$tmp"/*.log; do
            [ -e "$f" ] || continue
            echo "== ${f##*/}" && grep -v ' info: ' "$f" | tail -20
        done >&2
    fi
    for p in $pid; do
        kill "$p" 2>/dev/null && wait "$p" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM

# start_daemon NAME ARGS...: sudokud on $tmp/NAME.sock, its pid added to $pid.
start_daemon() {
    name=$1
    shift
    "$sudokud" -s "$tmp/$name.sock" "$@" 2>"$tmp/$name.log" &
    pid="$pid $!"
    i=0
    while [ ! -S "$tmp/$name.sock" ]; do
        i=$((i + 1))
        [ $i -lt 100 ] || { echo "bench.sh: sudokud did not start" >&2; cat "$tmp/$name.log" >&2; exit 1; }
        sleep 0.05
    done
}

# json_num KEY: the number after "KEY": in the JSON line on stdin.
json_num() {
    sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"
}

if [ -n "$isolate" ]; then
    start_daemon all -j 2 --isolate all
    start_daemon none -j 2 --isolate none
    echo "# $(uptime)"
    echo "# --isolate all against --isolate none, bitmask, limit 2, alternating"
    for m in all none; do # warm-up: every worker started, caches filled
        "$bench" --socket "$tmp/$m.sock" --solver bitmask --depth 1 --json \
            "$data/kaggle_sample.txt" >/dev/null
    done
    for round in 1 2 3; do
        for m in all none; do
            "$bench" --socket "$tmp/$m.sock" --solver bitmask --limit 2 --connections 3 \
                --depth 256 --json "$data/17_clue.txt" >"$tmp/pipe.$m"
            "$bench" --socket "$tmp/$m.sock" --solver bitmask --depth 1 --repeat 20 --json \
                "$data/kaggle_sample.txt" >"$tmp/one.$m"
        done
        ra=$(json_num requests_per_s <"$tmp/pipe.all")
        rn=$(json_num requests_per_s <"$tmp/pipe.none")
        echo "round $round: pipelined all $ra/s none $rn/s: $(echo "$ra $rn" | awk '{printf "%.2fx", $1 / $2}');" \
            "one at a time p50/p99 us: all $(json_num us_p50 <"$tmp/one.all")/$(json_num us_p99 <"$tmp/one.all")," \
            "none $(json_num us_p50 <"$tmp/one.none")/$(json_num us_p99 <"$tmp/one.none")"
    done
    echo "# $(uptime)"
    exit 0
fi

# side_by_side OURS THEIRS FILE: three alternating rounds, one line each.
side_by_side() {
    lines=$(grep -c . "$3")
    for round in 1 2 3; do
        ours=$("$bench" --solver "$1" --limit 2 --json "$3")
        theirs=$("$tdoku" -s "$2" -r 0 -n "$lines" -w 1 -t 3 "$3" | grep "^|$2 ")
        printf '%s\n%s\n' "$ours" "$theirs" | awk -v r="$round" -v f="${3##*/}" -v a="$1" -v b="$2" '
            NR == 1 { match($0, /"puzzles_per_s":[0-9.]+/); o = substr($0, RSTART + 16, RLENGTH - 16)
                      match($0, /"guesses_per_puzzle":[0-9.]+/); og = substr($0, RSTART + 21, RLENGTH - 21) }
            NR == 2 { split($0, c, "|"); t = c[3] + 0; tg = c[6] + 0 }
            END { printf "%s round %d: %s %.0f/s (%.2f guesses) vs %s %.0f/s (%.2f guesses): %.2fx\n",
                         f, r, a, o, og, b, t, tg, (t > 0 ? o / t : 0) }'
    done
}

if [ -n "$tdoku" ]; then
    echo "# $(uptime)"
    echo "# side by side with $tdoku: single thread, limit 2, file order"
    head -1000 "$data/forum_hardest_1905_11.txt" >"$tmp/forum_hardest_1000.txt"
    for f in "$data/17_clue.txt" "$data/forum_hardest_1905_11.txt"; do
        side_by_side bitmask tdoku "$f"
        side_by_side dlx fast_solv_9r2 "$f"
    done
    side_by_side dfs _tdev_basic "$tmp/forum_hardest_1000.txt"
    echo "# $(uptime)"
    exit 0
fi

echo "# $(uptime)"
echo "# in process, one thread, limit 2"
for i in 1 2; do
    "$bench" --solver bitmask,dlx --json "$data/17_clue.txt" "$data/forum_hardest_1905_11.txt"
done
head -2000 "$data/forum_hardest_1905_11.txt" >"$tmp/forum_hardest_2000.txt"
"$bench" --solver dfs --timeout-ms 1000 --json "$tmp/forum_hardest_2000.txt"

start_daemon x

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
