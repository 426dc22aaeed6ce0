#!/bin/sh
# lint.sh -- the house style's static checks, run by test.sh.
#
# clang-format (settings in .clang-format) must leave every C file as it is,
# and cppcheck with the STYLE.md settings must find nothing in the product
# code (util, core, proto, method, daemon, plugins, client, tool, bench).  Exit status non-zero on any
# finding.  plugins/bitmask/fast9.c is left to the compiler warnings and the
# sanitizers: cppcheck 2.10's value flow takes about 150 s on its unrolled
# band code, more than the rest of the suite's lint put together.
set -eu
cd "$(dirname "$0")/.."

jobs=$(nproc 2>/dev/null || echo 2)
status=0
# One clang-format over every file (a process per file costs ~40 s here):
# each file it would change gets an error line naming it.
out=$(git ls-files -z '*.c' '*.h' | xargs -0 clang-format --dry-run -Werror 2>&1 >/dev/null) || {
    unformatted=$(printf '%s\n' "$out" |
        sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
    if [ -n "$unformatted" ]; then
        echo "lint: clang-format would change:" $unformatted >&2
    else
        printf 'lint: clang-format failed:\n%s\n' "$out" >&2
    fi
    status=1
}
cppcheck -j "$jobs" --enable=warning,style,performance,portability --std=c11 --error-exitcode=1 -q \
    -I include -I . --suppress=missingIncludeSystem -i plugins/bitmask/fast9.c \
    util core proto method daemon plugins client tool bench || status=1
[ "$status" -eq 0 ] && echo "lint: clang-format and cppcheck clean"
exit "$status"
