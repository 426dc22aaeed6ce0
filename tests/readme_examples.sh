#!/bin/sh
# readme_examples.sh -- the README's command lines work in a fresh clone.
#
#   readme_examples.sh SRC_DIR BIN_DIR
#
# Every line of a ```sh block in README.md that runs build/bin/sudoku or
# build/bin/sudoku-bench (each command of a `a; b; c` line) is run from
# SRC_DIR against a daemon of BIN_DIR on a temporary socket (for
# SUDOKUD_SOCKET and the README's /tmp/sudokud.sock), and must exit 0; every
# file it names must be in the source tree (examples/ or tests/data/), not in
# ../shared/data, which a fresh clone does not have.  What a line writes with
# -o FILE lands in a temporary folder.
set -eu
src=$1 bin=$2
tmp=$(mktemp -d)
daemon=""
cleanup() {
    [ -n "$daemon" ] && { kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; }
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail() {
    echo "FAIL: $*" >&2
    for f in "$tmp"/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done
    exit 1
}

sock="$tmp/sudokud.sock"
"$bin/sudokud" -s "$sock" 2>"$tmp/daemon.log" &
daemon=$!
i=0
until "$bin/sudoku" -s "$sock" ping >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -lt 100 ] || fail "sudokud did not come up"
    sleep 0.1
done

# The commands, one a line, comments cut.
awk '/^```sh/ { f = 1; next } /^```/ { f = 0 } f' "$src/README.md" |
    grep -E '^build/bin/sudoku(-bench)? ' | sed 's/[[:space:]][[:space:]]*# .*$//' | tr ';' '\n' |
    sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep . >"$tmp/commands"
n=$(wc -l <"$tmp/commands")
[ "$n" -gt 5 ] || fail "only $n command lines found in README.md"
while IFS= read -r cmd; do
    for word in $cmd; do
        case $word in
        *.txt)
            file=${word#--*=} # --option=FILE, --option=@FILE
            file=${file#@}
            [ -f "$src/$file" ] || fail "README: '$cmd' names $file, not in a fresh clone"
            ;;
        esac
    done
    # A picture or book it writes (-o FILE) goes to the temporary folder, not
    # into the source tree or the machine's /tmp.
    run=$(printf '%s\n' "$cmd" | sed "s#^build/bin/#$bin/#; s#/tmp/sudokud.sock#$sock#g;
        s#-o \([^ ]*/\)\{0,1\}\([^ /]*\)#-o $tmp/\2#g")
    (cd "$src" && SUDOKUD_SOCKET="$sock" timeout 120 sh -c "$run") >"$tmp/out.log" 2>"$tmp/err.log" ||
        fail "README: '$cmd' exited $?"
    echo "readme: ok: $cmd"
done <"$tmp/commands"
echo "readme: all $n commands ran"
