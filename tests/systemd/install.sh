#!/bin/sh
# install.sh -- the install layout, the plugin SDK and the installed daemon.
#
#   install.sh SRC_DIR BUILD_DIR
#
# 1. `cmake --install BUILD --prefix TMP` lays out sbin/sudokud, bin/ tools,
#    lib/sudokud/plugins/*.so, include/sudoku/plugin.h, plugin_rules.h,
#    share/pkgconfig/sudoku-plugin.pc, man pages and the systemd units (whose
#    ExecStart= names TMP/sbin/sudokud and which systemd-analyze verifies).
# 2. examples/plugin builds out of tree against that SDK through pkg-config
#    and installs into the plugindir the .pc file names.
# 3. The installed sudokud, started with no -P flag, finds every installed
#    plugin, the example one included, and answers solves with each; answers
#    are checked by the rules and the givens.
#    Nothing is installed twice; the units' Documentation= names the
#    installed man page's path; the installed sudoku runs with an empty
#    environment (--version, and --local on a puzzle, answer checked).
# 4. DESTDIR staging keeps the configured prefix in the generated files.
# Exit 77 (skip) only when python3 or pkg-config is missing.
set -eu
src=$1 build=$2
rpc="$src/tests/systemd/mprpc.py"
puzzles="$src/tests/data/install_sample.txt"

command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
command -v pkg-config >/dev/null 2>&1 || { echo "SKIP: no pkg-config"; exit 77; }
cmake=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$build/CMakeCache.txt")
[ -n "$cmake" ] || cmake=cmake

tmp=$(mktemp -d)
prefix="$tmp/prefix"
daemon=""
cleanup() {
    [ -n "$daemon" ] && { kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true; }
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
fail() {
    echo "FAIL: $*" >&2
    for f in "$tmp"/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; cat "$f" >&2; }; done
    exit 1
}
need() {
    [ -e "$prefix/$1" ] || fail "missing from the install: $1"
}

# ---- 1. layout
"$cmake" --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || fail "cmake --install failed"
need sbin/sudokud
[ -x "$prefix/sbin/sudokud" ] || fail "sbin/sudokud is not executable"
for tool in sudoku-bench sudoku; do
    if [ -x "$build/bin/$tool" ]; then need "bin/$tool"; fi
done
nplugins=0
for so in "$build"/lib/sudokud/plugins/*.so; do
    [ -e "$so" ] || continue
    need "lib/sudokud/plugins/$(basename "$so")"
    nplugins=$((nplugins + 1))
done
[ "$nplugins" -gt 0 ] || fail "no plugins built in $build"
need include/sudoku/plugin.h
cmp -s "$src/include/sudoku/plugin.h" "$prefix/include/sudoku/plugin.h" || fail "plugin.h differs"
need include/sudoku/plugin_rules.h
need share/pkgconfig/sudoku-plugin.pc
for page in "$src"/docs/*.1 "$src"/docs/*.8; do
    [ -e "$page" ] || continue
    sec=${page##*.}
    need "share/man/man$sec/$(basename "$page")"
done
need lib/systemd/system/sudokud.socket
need lib/systemd/system/sudokud.service
need lib/sysusers.d/sudokud.conf
grep -q "^ExecStart=$prefix/sbin/sudokud " "$prefix/lib/systemd/system/sudokud.service" ||
    fail "ExecStart= does not name the installed daemon"
# Nothing is installed twice (a second "Installing:" or "Up-to-date:" line
# for one path means two rules install it).
dups=$(sed -n 's/^-- [A-Za-z-]*: //p' "$tmp/install.log" | sort | uniq -d)
[ -z "$dups" ] || fail "installed more than once: $dups"
# Outside /usr and /usr/local man(1) does not look: the units name the
# installed page by path as well, and that path exists.
for unit in sudokud.socket sudokud.service; do
    doc=$(sed -n 's/^Documentation=//p' "$prefix/lib/systemd/system/$unit")
    case " $doc " in
    *" file:$prefix/share/man/man8/sudokud.8 "*) ;;
    *) fail "$unit: Documentation=$doc does not name the installed man page" ;;
    esac
    for url in $doc; do
        case $url in file:*) [ -f "${url#file:}" ] || fail "$unit names a missing file: $url" ;; esac
    done
done
# The installed tools run with an empty environment (no LD_LIBRARY_PATH):
# whatever they link from the install's libdir they find by their run path.
if [ -x "$prefix/bin/sudoku" ]; then
    env -i "$prefix/bin/sudoku" --version >"$tmp/version.out" 2>&1 ||
        fail "installed sudoku --version with an empty environment: $(cat "$tmp/version.out")"
    puzzle=$(head -1 "$puzzles")
    answer=$(echo "$puzzle" | env -i "$prefix/bin/sudoku" --local 2>"$tmp/local.log") ||
        fail "installed sudoku --local with an empty environment"
    python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import mprpc
sys.exit(1 if mprpc.check_solution(sys.argv[2], sys.argv[3]) else 0)' \
        "$src/tests/systemd" "$puzzle" "$answer" || fail "installed sudoku --local: wrong answer $answer"
    echo "install: installed sudoku runs with an empty environment (--version, --local)"
fi
if command -v systemd-analyze >/dev/null 2>&1; then
    man=--man=no
    if [ -f "$prefix/share/man/man8/sudokud.8" ] && command -v man >/dev/null 2>&1; then
        man=--man=yes
    fi
    out=$(cd "$prefix/lib/systemd/system" &&
        MANPATH="$prefix/share/man" systemd-analyze verify $man sudokud.socket sudokud.service 2>&1) ||
        fail "systemd-analyze verify on the installed units: $out"
    [ -z "$out" ] || fail "systemd-analyze verify on the installed units printed: $out"
    echo "install: installed units verify clean ($man)"
fi
echo "install: layout complete ($nplugins plugins)"

# ---- 2. the SDK through pkg-config, and the example plugin out of tree.
# Both .pc files sit in one directory, written for this prefix.
pcdir=$(dirname "$(find "$prefix" -path '*/pkgconfig/sudoku-client.pc' | head -1)")
[ -f "$pcdir/sudoku-client.pc" ] || fail "no sudoku-client.pc installed"
[ -f "$pcdir/sudoku-plugin.pc" ] || fail "sudoku-plugin.pc is not beside sudoku-client.pc"
export PKG_CONFIG_PATH="$pcdir"
cflags=$(pkg-config --cflags sudoku-plugin) || fail "pkg-config cannot read sudoku-plugin.pc"
cflags=${cflags% }
[ "$cflags" = "-I$prefix/include" ] || fail "unexpected Cflags: $cflags"
plugindir=$(pkg-config --variable=plugindir sudoku-plugin)
[ "$plugindir" = "$prefix/lib/sudokud/plugins" ] || fail "unexpected plugindir: $plugindir"
[ -z "$(pkg-config --libs sudoku-plugin)" ] || fail "the SDK must be header-only"
"$cmake" -S "$src/examples/plugin" -B "$tmp/example" >"$tmp/example.log" 2>&1 ||
    fail "configuring examples/plugin"
"$cmake" --build "$tmp/example" >>"$tmp/example.log" 2>&1 || fail "building examples/plugin"
grep -rqs --include=flags.make --include=build.ninja -- "$prefix/include" "$tmp/example" ||
    fail "examples/plugin was not compiled against the installed SDK"
"$cmake" --install "$tmp/example" >>"$tmp/example.log" 2>&1 || fail "installing examples/plugin"
need lib/sudokud/plugins/example.so
echo "install: examples/plugin built against the installed SDK into $plugindir"

# The client example of docs/client.md, built with pkg-config alone, shared
# and static; the static build also defines symbols named like our internals
# (rpc_read, grid_check_givens, cbuf_free), which must not clash.
sed -n '/^```c$/,/^```$/p' "$src/docs/client.md" | sed '1d;/^```$/,$d' >"$tmp/solve_stdin.c"
grep -q 'int main' "$tmp/solve_stdin.c" || fail "no client example found in docs/client.md"
cat >"$tmp/clash.c" <<'EOF2'
int rpc_read(void) { return 1; }
int grid_check_givens(void) { return 2; }
int cbuf_free(void) { return 3; }
EOF2
libdir=$(pkg-config --variable=libdir sudoku-client)
# A sanitized build installs a sanitized library: its users build the same way.
san=""
grep -q '^SUDOKU_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && san="-fsanitize=address,undefined"
[ "$libdir" = "$prefix/lib" ] || [ "$libdir" = "$(dirname "$pcdir")" ] || fail "unexpected libdir: $libdir"
# shellcheck disable=SC2046 # pkg-config output is a list of flags
cc $san -o "$tmp/solve_shared" "$tmp/solve_stdin.c" $(pkg-config --cflags --libs sudoku-client) \
    >"$tmp/cc.log" 2>&1 || fail "building the client example against the installed library"
# shellcheck disable=SC2046
cc $san -o "$tmp/solve_static" "$tmp/solve_stdin.c" "$tmp/clash.c" $(pkg-config --cflags sudoku-client) \
    "$libdir/libsudoku-client.a" -lmsgpackc >>"$tmp/cc.log" 2>&1 ||
    fail "a program with its own rpc_read/grid_check_givens/cbuf_free cannot link libsudoku-client.a"
echo "install: the client example builds with pkg-config alone (shared and static)"

# ---- 3. the installed daemon, no flags but its socket
sock="$tmp/d.sock"
env -u SUDOKUD_SOCKET -u LISTEN_FDS -u LISTEN_PID -u NOTIFY_SOCKET \
    "$prefix/sbin/sudokud" -s "$sock" >"$tmp/daemon.log" 2>&1 &
daemon=$!
python3 "$rpc" wait "$sock" 20 || fail "installed sudokud does not answer on $sock"
python3 "$rpc" solvers "$sock" >"$tmp/solvers.out" || fail "solvers"
for so in "$prefix"/lib/sudokud/plugins/*.so; do
    name=$(basename "$so" .so)
    grep -qx "$name" "$tmp/solvers.out" || fail "installed sudokud did not load $name"
done
while IFS= read -r puzzle; do
    # shellcheck disable=SC2013 # plugin names are single words
    for name in $(cat "$tmp/solvers.out"); do
        res=$(python3 "$rpc" solve "$sock" "$name" "$puzzle") || fail "solve with $name"
        case $res in
        *"\"solver\":\"$name\""*) ;;
        *) fail "answer not from $name: $res" ;;
        esac
    done
done <"$puzzles"
echo "install: installed sudokud loaded $(tr '\n' ' ' <"$tmp/solvers.out")and solved with each"
for prog in solve_shared solve_static; do
    SUDOKUD_SOCKET="$sock" LD_LIBRARY_PATH="$libdir" "$tmp/$prog" <"$puzzles" >"$tmp/$prog.out" \
        2>"$tmp/$prog.log" || fail "$prog against the installed daemon"
    [ "$(wc -l <"$tmp/$prog.out")" -eq "$(grep -c . "$puzzles")" ] || fail "$prog: answers missing"
done
echo "install: the client example answered every puzzle, shared and static"
python3 "$rpc" solve "$sock" example "$(head -1 "$puzzles")"
kill -TERM "$daemon"
status=0
wait "$daemon" || status=$?
daemon=""
[ "$status" -eq 0 ] || fail "installed sudokud exited with status $status on SIGTERM"
[ ! -e "$sock" ] || fail "installed sudokud left its socket behind"

# ---- 4. DESTDIR staging writes the configured prefix, not the staging dir
stage="$tmp/stage"
DESTDIR="$stage" "$cmake" --install "$build" >"$tmp/stage.log" 2>&1 || fail "DESTDIR install"
pc=$(find "$stage" -name sudoku-plugin.pc | head -1)
[ -n "$pc" ] || fail "no sudoku-plugin.pc under DESTDIR"
grep -q "$stage" "$pc" && fail "DESTDIR leaked into $pc"
unit=$(find "$stage" -name sudokud.service | head -1)
grep -q "$stage" "$unit" && fail "DESTDIR leaked into $unit"
echo "install: DESTDIR staging ok ($(sed -n 's/^prefix=//p' "$pc"))"
