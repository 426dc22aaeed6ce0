#!/bin/sh
# layers.sh -- each folder includes only what lies below it (docs/architecture.md).
#
# From the bottom up:
#   include/   nothing of the tree (the installed headers; plugin_rules.h: plugin.h)
#   util/      util/ only (clock, error texts, JSON, option tables)
#   plugins/   <sudoku/plugin.h>, <sudoku/plugin_rules.h> and its own headers
#   core/      core/ and <sudoku/plugin.h>: nothing else, not even util/
#   proto/     util/, proto/, core/side.h, <sudoku/plugin.h>, <sudoku/client.h>
#              (the client's end decodes into the library's structs)
#   method/    util/, core/, proto/, method/, <sudoku/plugin.h>
#   daemon/    util/, core/, proto/, method/, daemon/, <sudoku/plugin.h>
#   client/    the library: util/, proto/, client/, <sudoku/client.h>; never
#              core/, method/ or the daemon
#   tool/      the sudoku tool: util/, core/, proto/, method/, client/, tool/,
#              <sudoku/client.h> (sudoku --local runs the method layer)
#   bench/     anything but daemon/ and tool/
# Then the built client library (LIB, libsudoku-client.a, and SO, its shared
# twin) must define no host or solver code and must not need dlopen: the
# library links no solver; and a user's program sees only sudoku_* symbols
# from either.  None of them, nor INTERNAL (the archive the tool and tests
# link, build/lib/internal/libsudoku-client-internal.a), may define any of
# the daemon's end of the wire: proto/ names it rpc_* (proto/end.h), and the
# library links only the client's end.
# Usage: layers.sh SOURCE_DIR [LIB [SO [INTERNAL]]]
set -eu
src=$1
lib=${2:-}
so=${3:-}
internal=${4:-}
bad=0

# allowed FOLDER PATTERN: every quoted or <sudoku/...> include in FOLDER must
# match the extended regex PATTERN.
allowed() {
    folder=$1
    pattern=$2
    only=${3:-}
    files=$(find "$src/$folder" -name '*.[ch]' | sort)
    if [ -n "$only" ]; then
        files=$(for f in $files; do
            if printf '%s\n' "${f##*/}" | grep -qE "$only"; then echo "$f"; fi
        done)
    fi
    [ -n "$files" ] || return 0
    # one grep over the folder (a process per include line took seconds):
    # hits are FILE:LINE:TEXT, incs the included names, line for line
    # shellcheck disable=SC2086
    hits=$(grep -nHE '^[[:space:]]*#[[:space:]]*include[[:space:]]*("|<sudoku/)' $files || true)
    [ -n "$hits" ] || return 0
    printf '%s\n' "$hits" | sed -E 's/^[^:]*:[0-9]+:[^"<]*["<]([^">]*)[">].*/\1/' |
        grep -nvE "$pattern" | while IFS=: read -r k inc; do
            loc=$(printf '%s\n' "$hits" | sed -n "${k}p" | cut -d: -f1,2)
            echo "layers: ${loc#"$src"/} includes $inc"
            echo bad
        done
}

check() {
    out=$(allowed "$1" "$2" "${3:-}")
    if [ -n "$out" ]; then
        printf '%s\n' "$out" | grep -v '^bad$' >&2
        bad=1
    fi
}

check util '^util/[a-z0-9_]+\.h$'
check plugins '^(sudoku/plugin(_rules)?\.h|[a-z0-9_]+\.h)$'
check core '^core/[a-z0-9_]+\.h$|^sudoku/plugin\.h$'
check proto '^(util/|proto/)[a-z0-9_]+\.h$|^core/side\.h$|^sudoku/(plugin|client)\.h$'
check method '^(util/|core/|proto/|method/)[a-z0-9_]+\.h$|^sudoku/plugin\.h$'
check daemon '^(util/|core/|proto/|method/|daemon/)[a-z0-9_]+\.h$|^sudoku/plugin\.h$'
check client '^(util/|proto/|client/)[a-z0-9_]+\.h$|^sudoku/client\.h$'
check tool '^(util/|core/|proto/|method/|client/|tool/)[a-z0-9_]+\.h$|^sudoku/(plugin|client)\.h$'
check bench '^(util/|core/|proto/|method/|client/|bench/)[a-z0-9_]+\.h$|^sudoku/(plugin|client)\.h$'
check include '^$' '^(plugin|client)\.h$'
check include '^sudoku/plugin\.h$' '^plugin_rules\.h$'

if [ -n "$lib" ]; then
    defined=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 {print $3}')
    for sym in $(printf '%s\n' "$defined" | grep -E '^(host_|grid_solve|sudoku_plugin_entry)' || true); do
        echo "layers: $lib defines $sym: the client library links no solver" >&2
        bad=1
    done
    if nm -u "$lib" | grep -qE ' dlopen(@|$)'; then
        echo "layers: $lib needs dlopen: the client library loads no plugin" >&2
        bad=1
    fi
    for sym in $(printf '%s\n' "$defined" | grep -v '^sudoku_' || true); do
        echo "layers: $lib exports $sym: only sudoku_* may be visible" >&2
        bad=1
    done
fi
if [ -n "$so" ]; then
    for sym in $(nm -D --defined-only "$so" | awk 'NF == 3 {print $3}' | grep -v '^sudoku_' || true); do
        echo "layers: $so exports $sym: only sudoku_* may be visible" >&2
        bad=1
    done
fi
# Every symbol FILE defines, local ones too (the installed archive's and the
# shared library's internals are local): none may be the daemon's end.
no_daemon_end() {
    for sym in $(nm --defined-only "$1" 2>/dev/null | awk 'NF == 3 {print $3}' |
        grep -E '^rpc_' | sort -u || true); do
        echo "layers: $1 defines $sym: the client library links only the client's end" >&2
        bad=1
    done
}
for f in "$lib" "$so" "$internal"; do
    if [ -n "$f" ]; then
        no_daemon_end "$f"
    fi
done

[ $bad -eq 0 ] && echo "layers: every folder includes only what lies below it"
exit $bad
