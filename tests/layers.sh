#!/bin/sh
# layers.sh -- each folder includes only what lies below it (docs/architecture.md).
#
#   plugins/   <sudoku/plugin.h> and its own headers
#   proto/     proto/ and <sudoku/plugin.h> (the cell limits)
#   core/      proto/, core/, <sudoku/plugin.h>
#   daemon/    proto/, core/, daemon/, <sudoku/plugin.h>
#   client/    the library (client.c, ring.c, batch.c, wire.c, explain.c, gen.c, client_impl.h,
#              ring.h): proto/,
#              client/, <sudoku/client.h>, never core/ or the daemon; the
#              tool (main.c, run.c, local.c and their headers) may also use
#              core/: sudoku --local runs the plugin host
#   bench/     anything but daemon/
#   include/   nothing of the tree
# Then the built client library (LIB, libsudoku-client.a, and SO, its shared
# twin) must define no host or solver code and must not need dlopen: the
# library links no solver; and a user's program sees only sudoku_* symbols
# from either.
# Usage: layers.sh SOURCE_DIR [LIB [SO]]
set -eu
src=$1
lib=${2:-}
so=${3:-}
bad=0

# allowed FOLDER PATTERN: every quoted or <sudoku/...> include in FOLDER must
# match the extended regex PATTERN.
allowed() {
    folder=$1
    pattern=$2
    only=${3:-}
    for f in $(find "$src/$folder" -name '*.[ch]' | sort); do
        if [ -n "$only" ] && ! printf '%s\n' "${f##*/}" | grep -qE "$only"; then
            continue
        fi
        grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*("|<sudoku/)' "$f" |
            sed -E 's/^([0-9]+):[^"<]*["<]([^">]*)[">].*/\1 \2/' |
            while read -r line inc; do
                if ! printf '%s\n' "$inc" | grep -qE "$pattern"; then
                    echo "layers: ${f#"$src"/}:$line includes $inc"
                    echo bad
                fi
            done
    done
}

check() {
    out=$(allowed "$1" "$2" "${3:-}")
    if [ -n "$out" ]; then
        printf '%s\n' "$out" | grep -v '^bad$' >&2
        bad=1
    fi
}

check plugins '^(sudoku/plugin\.h|[a-z0-9_]+\.h)$'
check proto '^(proto/[a-z0-9_]+\.h|sudoku/plugin\.h)$'
check core '^(proto/|core/)[a-z0-9_]+\.h$|^sudoku/plugin\.h$'
check daemon '^(proto/|core/|daemon/)[a-z0-9_]+\.h$|^sudoku/plugin\.h$'
check client '^(proto/|client/)[a-z0-9_]+\.h$|^sudoku/client\.h$' '^(client|ring|batch|wire|explain|gen)\.c$|^(client_impl|ring)\.h$'
check client '^(proto/|core/|client/)[a-z0-9_]+\.h$|^sudoku/client\.h$'
check bench '^(proto/|core/|bench/)[a-z0-9_]+\.h$|^sudoku/(plugin|client)\.h$'
check include '^$'

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
[ $bad -eq 0 ] && echo "layers: every folder includes only what lies below it"
exit $bad
