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

status=0
unformatted=$(git ls-files '*.c' '*.h' | while read -r f; do
    clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || echo "$f"
done)
if [ -n "$unformatted" ]; then
    echo "lint: clang-format would change:" $unformatted >&2
    status=1
fi
cppcheck --enable=warning,style,performance,portability --std=c11 --error-exitcode=1 -q \
    -I include -I . --suppress=missingIncludeSystem -i plugins/bitmask/fast9.c \
    util core proto method daemon plugins client tool bench || status=1
[ "$status" -eq 0 ] && echo "lint: clang-format and cppcheck clean"
exit "$status"
