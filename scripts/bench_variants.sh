#!/bin/sh
# bench_variants.sh -- issue 28's speed figures: each variant file of
# bench/data/variants against its rating-matched classic file, one build or
# two side by side.
#
#   scripts/bench_variants.sh [-r ROUNDS] [-t TIMES] BUILD_DIR [BUILD_DIR2]
#
# Each file (x, windoku, jigsaw, anti_knight and their classic_like_ files,
# killer) is repeated TIMES times (default 20: 1,000 puzzles) into a
# temporary directory and timed with `sudoku-bench --solver bitmask --limit
# 2`, the plugins of each BUILD_DIR (its lib/sudokud/plugins).  With two
# builds they alternate file by file, and their order swaps every round:
# on a shared host the second of a pair can run up to 20% slower.  Prints
# one line a run (round, build, file, puzzles/s, median and p99 µs, guesses
# a puzzle), then per round and build each rule's rate over its classic
# file's, the issue's ratio (target: 0.5), and last the same from each
# build's best round of each file ("best"): this host switches between a
# fast and a slow state, about a quarter apart, within seconds, so single
# rounds scatter and the best of several is the steadiest figure.  ROUNDS
# defaults to 3.
set -eu
rounds=3
times=20
while getopts r:t: opt; do
    case $opt in
    r) rounds=$OPTARG ;;
    t) times=$OPTARG ;;
    *) echo "usage: $0 [-r ROUNDS] [-t TIMES] BUILD_DIR [BUILD_DIR2]" >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 [-r ROUNDS] [-t TIMES] BUILD_DIR [BUILD_DIR2]" >&2
    exit 2
fi
for b in "$@"; do
    [ -x "$b/bin/sudoku-bench" ] || { echo "bench_variants.sh: build $b first" >&2; exit 2; }
done
root=$(cd "$(dirname "$0")/.." && pwd)
data=$root/bench/data/variants
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

files="x classic_like_x windoku classic_like_windoku jigsaw classic_like_jigsaw anti_knight classic_like_anti_knight killer"
for f in $files; do
    i=0
    while [ $i -lt "$times" ]; do
        cat "$data/$f.jsonl"
        i=$((i + 1))
    done >"$tmp/$f.jsonl"
done

echo "# $(uptime)"
echo "# round build file puzzles/s median_us p99_us guesses"
r=1
while [ $r -le "$rounds" ]; do
    if [ $((r % 2)) -eq 1 ] || [ $# -eq 1 ]; then order="$*"; else order="$2 $1"; fi
    for f in $files; do
        for b in $order; do
            "$b/bin/sudoku-bench" -P "$b/lib/sudokud/plugins" --solver bitmask --limit 2 \
                "$tmp/$f.jsonl" | tail -1 |
                awk -v r="$r" -v b="$b" -v f="$f" '{ printf "%d %s %s %.0f %.1f %.1f %.1f\n", r, b, f, $9, $10, $11, $12 }'
        done
    done
    r=$((r + 1))
done >"$tmp/runs"
cat "$tmp/runs"
echo "# round build rule rate/classic_like_rate"
awk '{ rate[$1 " " $2 " " $3] = $4; key[$1 " " $2] = 1
       b = "best " $2 " " $3; if ($4 > rate[b]) rate[b] = $4; key["best " $2] = 1 }
     END {
         n = split("x windoku jigsaw anti_knight", rule, " ")
         for (k in key)
             for (i = 1; i <= n; i++) {
                 v = rate[k " " rule[i]]; c = rate[k " classic_like_" rule[i]]
                 if (c > 0) printf "%s %s %.3f\n", k, rule[i], v / c
             }
     }' "$tmp/runs" | sort
